package runtimes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/childenv"
)

// stopGrace is how long a cancelled program has to stop before it is
// killed.
const stopGrace = 5 * time.Second

// loggedError is the exit code with which Pulumi's SDKs say the program
// failed and they have reported why.
const loggedError = 32

// Options say how a built-in host runs programs.
type Options struct {
	// Engine is the address of the Engine service programs log to.
	Engine string
	// Stdout and Stderr receive what programs print; nil drops it.
	Stdout, Stderr io.Writer
}

// run runs a program to completion; cancelling ctx stops it. A program that
// fails is explained by how it exited and the last lines of its standard
// error.
func (o Options) run(ctx context.Context, lang string, cmd *exec.Cmd, env []string) *pulumirpc.RunResponse {
	cmd.Env = append(childenv.Environ(), env...)
	tail := &tail{}
	cmd.Stdout = orDiscard(o.Stdout)
	cmd.Stderr = io.MultiWriter(orDiscard(o.Stderr), tail)
	ownGroup(cmd)
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}
	case ctx.Err() != nil:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the %s program was stopped: %v", lang, context.Cause(ctx))}
	case errors.As(err, &exit) && exit.ExitCode() == loggedError:
		return &pulumirpc.RunResponse{Bail: true}
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("%s: %s%s", filepath.Base(cmd.Path), exit, tail.describe())}
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("starting %s: %v", cmd.Path, err)}
}

// install runs a command that installs a program's dependencies in dir,
// telling out what it runs and why, then streaming what it prints there.
func install(ctx context.Context, out io.Writer, dir, why string, name string, args ...string) error {
	out = orDiscard(out)
	line := strings.Join(append([]string{name}, args...), " ")
	fmt.Fprintf(out, "Installing the program's dependencies with %s in %s (%s)...\n", line, dir, why)
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, childenv.Environ(), out, out
	ownGroup(cmd)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("installing the program's dependencies: %s failed in %s: %w", line, dir, err)
	}
	return nil
}

// configEnv returns the stack configuration, by "<namespace>:<key>", and
// the keys of its secrets, as the SDKs read them from PULUMI_CONFIG and
// PULUMI_CONFIG_SECRET_KEYS.
func configEnv(config map[string]string, secretKeys []string) ([]string, error) {
	if config == nil {
		config = map[string]string{}
	}
	if secretKeys == nil {
		secretKeys = []string{}
	}
	c, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	k, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return []string{"PULUMI_CONFIG=" + string(c), "PULUMI_CONFIG_SECRET_KEYS=" + string(k)}, nil
}

// sdkEnv returns the environment from which the Go and Python SDKs read
// the deployment's settings.
func (o Options) sdkEnv(req *pulumirpc.RunRequest) ([]string, error) {
	env, err := configEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	return append(env,
		"PULUMI_MONITOR="+req.GetMonitorAddress(), "PULUMI_ENGINE="+o.Engine,
		"PULUMI_PROJECT="+req.GetProject(), "PULUMI_STACK="+req.GetStack(),
		"PULUMI_ORGANIZATION="+req.GetOrganization(), "PULUMI_ROOT_DIRECTORY="+req.GetInfo().GetRootDirectory(),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()), "PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel()))), nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// tail keeps the last bytes written to it.
type tail struct{ buf []byte }

// tailSize is how much of a failed program's standard error is kept.
const tailSize = 2048

func (t *tail) Write(b []byte) (int, error) {
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	return len(b), nil
}

// describe returns the kept lines, on lines of their own after a colon, or
// "" when nothing was written.
func (t *tail) describe() string {
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	if len(t.buf) == tailSize {
		if _, rest, ok := strings.Cut(s, "\n"); ok {
			s = rest
		}
	}
	return ":\n" + s
}
