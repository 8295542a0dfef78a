package launch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/cairn-iac/cairn/internal/childenv"
)

// MaxMessageSize bounds gRPC messages both ways; schemas of large providers
// run to tens of megabytes.
const MaxMessageSize = 400 << 20

// windowSize is the HTTP/2 flow-control window of plugin connections, both
// ways. A fixed window turns off gRPC's bandwidth estimation, whose pings
// cost a round trip's worth of frames on the many small calls of a
// deployment; 16 MiB lets large schemas flow without waiting on updates.
const windowSize = 16 << 20

// Spec says how to start a plugin.
type Spec struct {
	// Name names the plugin in logs and errors ("pulumi-resource-aws").
	Name string
	Path string
	Args []string
	// Dir is the working directory; empty means Cairn's.
	Dir string
	// Env is added to Cairn's environment.
	Env []string
	// Log receives the plugin's output, a record per line; nil means
	// slog.Default().
	Log *slog.Logger
	// StartTimeout bounds the wait for the port; zero means a minute. A
	// plugin that has not printed it by then is killed with its process
	// group.
	StartTimeout time.Duration
	// StopTimeout is how long Close waits for the plugin to exit after
	// asking it to before killing it; zero means five seconds.
	StopTimeout time.Duration
}

// Process is a running plugin and the connection to it.
type Process struct {
	spec   Spec
	cmd    *exec.Cmd
	conn   *grpc.ClientConn
	addr   string
	stderr *tail

	done    chan struct{}
	exitErr error // set before done is closed

	closeOnce sync.Once
	closeErr  error
}

// Start runs the plugin, waits for its port and connects to it.
func Start(ctx context.Context, spec Spec) (*Process, error) {
	if spec.Log == nil {
		spec.Log = slog.Default()
	}
	if spec.StartTimeout == 0 {
		spec.StartTimeout = time.Minute
	}
	if spec.StopTimeout == 0 {
		spec.StopTimeout = 5 * time.Second
	}
	log := spec.Log.With("plugin", spec.Name)
	port := make(chan string, 1)
	p := &Process{spec: spec, stderr: newTail(20), done: make(chan struct{})}
	p.cmd = exec.Command(spec.Path, spec.Args...)
	p.cmd.Dir = spec.Dir
	p.cmd.Env = append(pluginEnviron(), spec.Env...)
	p.cmd.SysProcAttr = SysProcAttr()
	first := true
	p.cmd.Stdout = &lineWriter{line: func(s string) {
		if first {
			first = false
			port <- s
			return
		}
		log.Info(s, "stream", "stdout")
	}}
	p.cmd.Stderr = &lineWriter{line: func(s string) {
		p.stderr.add(s)
		log.Info(s, "stream", "stderr")
	}}
	// A grandchild that keeps the output pipes open must not keep Wait
	// from returning once the plugin itself has exited.
	p.cmd.WaitDelay = time.Second
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting plugin %s (%s): %w", spec.Name, spec.Path, err)
	}
	go p.wait()

	timer := time.NewTimer(spec.StartTimeout)
	defer timer.Stop()
	var line string
	select {
	case line = <-port:
	case <-p.done:
		return nil, fmt.Errorf("plugin %s exited before printing its port: %w", spec.Name, p.exitErr)
	case <-timer.C:
		p.kill()
		return nil, fmt.Errorf("plugin %s did not print its port within %s, so it was stopped; it may be hung or not be a Pulumi plugin "+
			"(CAIRN_PLUGIN_START_TIMEOUT sets how long to wait)%s", spec.Name, spec.StartTimeout, p.stderr.describe())
	case <-ctx.Done():
		p.kill()
		return nil, fmt.Errorf("starting plugin %s: %w", spec.Name, ctx.Err())
	}
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || n <= 0 || n > 65535 {
		p.kill()
		return nil, fmt.Errorf("plugin %s printed %q where its port was expected: is %s a Pulumi plugin?", spec.Name, line, spec.Path)
	}
	p.addr = "127.0.0.1:" + strconv.Itoa(n)
	p.conn, err = grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessageSize), grpc.MaxCallSendMsgSize(MaxMessageSize)),
		grpc.WithInitialWindowSize(windowSize), grpc.WithInitialConnWindowSize(windowSize),
		grpc.WithChainUnaryInterceptor(logCalls(log)))
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("connecting to plugin %s at %s: %w", spec.Name, p.addr, err)
	}
	return p, nil
}

// wait records how the plugin exited.
func (p *Process) wait() {
	err := p.cmd.Wait()
	if err == nil {
		err = errors.New("exit status 0")
	}
	p.exitErr = fmt.Errorf("%w%s", err, p.stderr.describe())
	close(p.done)
}

// kill kills the plugin and what it started (its process group), and waits
// for it to exit.
func (p *Process) kill() {
	select {
	case <-p.done:
	default:
		_ = killGroup(p.cmd.Process)
	}
	<-p.done
}

// Name returns the plugin's name.
func (p *Process) Name() string { return p.spec.Name }

// Pid returns the plugin's process ID.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Addr returns the address the plugin serves on.
func (p *Process) Addr() string { return p.addr }

// Conn returns the connection to the plugin.
func (p *Process) Conn() *grpc.ClientConn { return p.conn }

// Done is closed when the plugin has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitError describes how the plugin exited, with the last lines it wrote to
// standard error; it is nil while the plugin runs.
func (p *Process) ExitError() error {
	select {
	case <-p.done:
		return p.exitErr
	default:
		return nil
	}
}

// Context returns a context that is also cancelled when the plugin exits,
// so that calls to a crashed plugin fail at once.
func (p *Process) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-p.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// Close closes the connection and stops the plugin: it is asked to exit and
// killed if it has not within the stop timeout. Close may be called more
// than once.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		if p.conn != nil {
			p.closeErr = p.conn.Close()
		}
		select {
		case <-p.done:
			return
		default:
		}
		_ = interrupt(p.cmd.Process)
		select {
		case <-p.done:
		case <-time.After(p.spec.StopTimeout):
			p.kill()
		}
	})
	return p.closeErr
}

// logCalls logs each call to the plugin, with its duration and error, at
// debug level.
func logCalls(log *slog.Logger) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		start := time.Now()
		err := invoker(ctx, method, req, reply, cc, opts...)
		if log.Enabled(ctx, slog.LevelDebug) {
			attrs := []any{"duration", time.Since(start).Round(time.Microsecond)}
			if err != nil {
				attrs = append(attrs, "error", err)
			}
			log.Debug("call "+method[strings.LastIndexByte(method, '/')+1:], attrs...)
		}
		return err
	}
}

// pluginEnviron is the environment a plugin inherits: that of every child
// (see package childenv) but for the variables that make a cairn process
// write profiles, so that a plugin served by cairn (`cairn plugin serve`)
// does not overwrite the engine's.
func pluginEnviron() []string {
	env := childenv.Environ()
	return slices.DeleteFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "CAIRN_CPUPROFILE=") || strings.HasPrefix(kv, "CAIRN_MEMPROFILE=")
	})
}
