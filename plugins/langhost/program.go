package langhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/rpc"
	"github.com/cairn-iac/cairn/plugins/langhost/runtimes"
	"github.com/cairn-iac/cairn/plugins/monitor"
)

// Program is a program run by a language host.
type Program struct {
	// Runtime names the program's language: nodejs, go, python, or the
	// <runtime> of Pulumi's pulumi-language-<runtime>.
	Runtime string
	// Options are the runtime options of the project file.
	Options map[string]any
	// RootDirectory is the project's folder, ProgramDirectory the
	// program's (they differ when the project sets main:).
	RootDirectory    string
	ProgramDirectory string
	// EntryPoint is the program's entry point relative to its folder;
	// empty means ".".
	EntryPoint string
	// Args are passed to the program.
	Args []string
	// Dirs are where Pulumi's language hosts are looked for.
	Dirs locate.Dirs
	// Host finds providers for the schema Loader service the language host
	// is given; nil serves none.
	Host provider.Host
	// Output receives what installing the program's dependencies prints;
	// nil drops it.
	Output io.Writer
	// Log receives which language host runs the program and what Pulumi's
	// host prints; nil means slog.Default().
	Log *slog.Logger
	// Diag receives what the program logs, and what a program run by
	// Cairn's own host prints, line by line; nil drops it.
	Diag func(deploy.DiagEvent)
	// StartTimeout bounds the start of Pulumi's language host; zero means
	// a minute.
	StartTimeout time.Duration
}

var _ deploy.Program = (*Program)(nil)

// ErrBail is returned when the program failed and its SDK has already
// reported why.
var ErrBail = errors.New("the program stopped after reporting its errors")

// host is a language host as Program uses it: Cairn's own or Pulumi's.
type host interface {
	runtimes.Host
	Close() error
}

// builtIn is Cairn's own language host for a runtime.
type builtIn struct{ runtimes.Host }

func (builtIn) Close() error { return nil }

// Run implements deploy.Program: it serves the deployment's monitor, starts
// the language host HostEnv chooses, has it install the program's
// dependencies, makes sure the provider plugins the program needs are
// there and runs the program.
func (p *Program) Run(ctx context.Context, info deploy.RunInfo) error {
	choice, err := Choose(p.Runtime, p.Dirs)
	if err != nil {
		return err
	}
	srv, err := monitor.Serve(info.Monitor, monitor.Options{Diag: p.Diag, ProgramDirectory: p.ProgramDirectory, Host: p.Host})
	if err != nil {
		return err
	}
	defer srv.Close()
	req, err := p.runRequest(info, srv.Addr())
	if err != nil {
		return err
	}
	log := p.Log
	if log == nil {
		log = slog.Default()
	}
	log.Info("running the "+p.Runtime+" program", "host", choice.String())
	var h host
	if choice.BuiltIn {
		stdout, stderr := p.lines(), p.lines()
		defer stdout.flush()
		defer stderr.flush()
		rt, _ := runtimes.New(p.Runtime, runtimes.Options{Engine: srv.Addr(), Stdout: stdout, Stderr: stderr})
		h = builtIn{rt}
	} else if h, err = p.startPlugin(ctx, choice.Path, srv.Addr()); err != nil {
		return err
	}
	defer h.Close()
	out := p.Output
	if out == nil {
		out = io.Discard
	}
	if err := h.Install(ctx, req.GetInfo(), out); err != nil {
		return err
	}
	if err := p.checkPlugins(ctx, h, req.GetInfo()); err != nil {
		return err
	}
	resp, err := h.Run(ctx, req)
	switch {
	case err != nil:
		return err
	case resp.GetBail():
		return ErrBail
	case resp.GetError() != "":
		return fmt.Errorf("the %s program failed: %s", p.Runtime, resp.GetError())
	}
	return nil
}

func (p *Program) runRequest(info deploy.RunInfo, addr string) (*pulumirpc.RunRequest, error) {
	config, secretKeys, err := provider.ConfigStrings(info.Config)
	if err != nil {
		return nil, err
	}
	configMap, err := rpc.MarshalMap(info.Config, rpc.Options{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	options, err := structpb.NewStruct(p.Options)
	if err != nil {
		return nil, fmt.Errorf("runtime options of %s: %w", p.Runtime, err)
	}
	entry := p.EntryPoint
	if entry == "" {
		entry = "."
	}
	req := &pulumirpc.RunRequest{
		Project: info.Project, Stack: info.Stack, Organization: info.Organization, Pwd: p.ProgramDirectory,
		Args: p.Args, Config: config, ConfigSecretKeys: secretKeys,
		DryRun: info.DryRun, Parallel: int32(info.Parallel), MonitorAddress: addr,
		Info: &pulumirpc.ProgramInfo{RootDirectory: p.RootDirectory, ProgramDirectory: p.ProgramDirectory,
			EntryPoint: entry, Options: options},
	}
	if p.Host != nil {
		req.LoaderTarget = addr
	}
	//lint:ignore SA1019 language hosts that predate ProgramInfo read these, which Pulumi's engine still sends
	req.Program, req.ConfigPropertyMap = entry, configMap
	return req, nil
}
