package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/childenv"
	"github.com/cairn-iac/cairn/internal/props"
)

// The variables that carry a command's previous output to the next one.
const (
	envStdout = "PULUMI_COMMAND_STDOUT"
	envStderr = "PULUMI_COMMAND_STDERR"
)

// invocation is one run of a command, with everything it runs with.
type invocation struct {
	op           string // "create", "update", "delete" or "run", for messages
	command      string
	interpreter  []string
	dir          string
	env          []string
	stdin        string
	assetPaths   []string
	archivePaths []string
	wantAssets   bool // assetPaths is set, if to an empty list
	wantArchive  bool
	// echo, when set, gets what the command writes on stdout and stderr
	// too, as it writes it.
	echo io.Writer
}

// newInvocation prepares the command of operation op from a resource's (or
// the run function's) inputs. previous holds the outputs of the last create
// or update, whose stdout and stderr the command gets in its environment
// unless addPreviousOutputInEnv is false.
func newInvocation(op, command string, in, previous resource.Map) (*invocation, error) {
	inv := &invocation{op: op, command: command}
	inv.interpreter, _ = props.Strings(in, "interpreter")
	if len(inv.interpreter) == 0 {
		inv.interpreter = []string{"/bin/sh", "-c"}
		if runtime.GOOS == "windows" {
			inv.interpreter = []string{"cmd", "/C"}
		}
	}
	dir, _ := props.String(in, "dir")
	abs, err := filepath.Abs(dir) // "" is the working directory
	if err != nil {
		return nil, fmt.Errorf("finding the directory to run the %s command in: %w", op, err)
	}
	inv.dir = abs
	inv.env = childenv.Environ()
	vars, _ := props.StringMap(in, "environment")
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		inv.env = append(inv.env, k+"="+vars[k])
	}
	if add, ok := props.Bool(in, "addPreviousOutputInEnv"); add || !ok {
		if s, _ := props.String(previous, "stdout"); s != "" {
			inv.env = append(inv.env, envStdout+"="+s)
		}
		if s, _ := props.String(previous, "stderr"); s != "" {
			inv.env = append(inv.env, envStderr+"="+s)
		}
	}
	inv.stdin, _ = props.String(in, "stdin")
	inv.assetPaths, inv.wantAssets = props.Strings(in, "assetPaths")
	inv.archivePaths, inv.wantArchive = props.Strings(in, "archivePaths")
	return inv, nil
}

// run runs the command and returns its outputs: stdout and stderr, and the
// assets and archive it was asked to collect. A timeout above zero bounds the
// run; when it passes, or ctx ends, the command and the processes it started
// are killed.
func (inv *invocation) run(ctx context.Context, timeout time.Duration) (resource.Map, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	args := append(append([]string(nil), inv.interpreter...), inv.command)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir, cmd.Env = inv.dir, inv.env
	if inv.stdin != "" {
		cmd.Stdin = strings.NewReader(inv.stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if inv.echo != nil {
		echo := &lockedWriter{w: inv.echo}
		cmd.Stdout, cmd.Stderr = io.MultiWriter(&stdout, echo), io.MultiWriter(&stderr, echo)
	}
	killGroup(cmd)
	// Give up on output that processes left behind keep writing.
	cmd.WaitDelay = time.Second

	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("the %s command did not finish within %s and was killed; raise the resource's custom timeout if it needs longer", inv.op, timeout)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("the %s command was cancelled and killed: %w", inv.op, context.Cause(ctx))
	case errors.As(err, &exit):
		return nil, &Error{Op: inv.op, ExitCode: exit.ExitCode(), Tail: tail(stderr.String(), stdout.String())}
	case err != nil:
		return nil, fmt.Errorf("cannot run the %s command with %q in %s: %w", inv.op, inv.interpreter, inv.dir, err)
	}
	outputs := resource.Map{
		"stdout": resource.String(strings.TrimSuffix(stdout.String(), "\n")),
		"stderr": resource.String(strings.TrimSuffix(stderr.String(), "\n")),
	}
	if err := inv.collect(outputs); err != nil {
		return nil, fmt.Errorf("the %s command ran, but collecting its files failed: %w", inv.op, err)
	}
	return outputs, nil
}

// Run runs a command as a Command's create command runs, with the inputs
// of a Command that reach its process (interpreter, dir, environment and
// stdin), copying what it writes on stdout and stderr to echo as it
// writes it; op names it in errors. A command that exits with a status
// other than 0 returns an *Error.
func Run(ctx context.Context, op, command string, inputs resource.Map, echo io.Writer) error {
	inv, err := newInvocation(op, command, inputs, nil)
	if err != nil {
		return err
	}
	inv.echo = echo
	_, err = inv.run(ctx, 0)
	return err
}

// lockedWriter serializes the writes of a command's two streams.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
