package langhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/rpc"
	"github.com/cairn-iac/cairn/plugins/monitor"
)

// Program is a program run by a language host.
type Program struct {
	// Runtime names the language host: pulumi-language-<Runtime>.
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
	// Dirs are where language hosts are looked for.
	Dirs locate.Dirs
	// Host finds providers for the schema Loader service the language host
	// is given; nil serves none.
	Host provider.Host
	// Output receives what installing the program's dependencies prints;
	// nil drops it.
	Output io.Writer
	// Log receives what the language host prints; nil means slog.Default().
	Log *slog.Logger
	// Diag receives what the program logs; nil drops it.
	Diag func(deploy.DiagEvent)
	// StartTimeout bounds the language host's start; zero means a minute.
	StartTimeout time.Duration
}

var _ deploy.Program = (*Program)(nil)

// ErrBail is returned when the program failed and its SDK has already
// reported why.
var ErrBail = errors.New("the program stopped after reporting its errors")

// Run implements deploy.Program.
func (p *Program) Run(ctx context.Context, info deploy.RunInfo) error {
	host, ok := locate.Best(p.Dirs.Find(locate.Language, p.Runtime), "")
	if !ok {
		return fmt.Errorf("no language host for runtime %q: install %s (it comes with the Pulumi CLI for its language) on PATH or in $CAIRN_HOME/plugins",
			p.Runtime, locate.Language.Binary(p.Runtime))
	}
	srv, err := monitor.Serve(info.Monitor, monitor.Options{Diag: p.Diag, ProgramDirectory: p.ProgramDirectory, Host: p.Host})
	if err != nil {
		return err
	}
	defer srv.Close()
	proc, err := launch.Start(ctx, launch.Spec{Name: locate.Language.Binary(p.Runtime), Path: host.Path,
		Args: []string{srv.Addr()}, Dir: p.ProgramDirectory, Log: p.Log, StartTimeout: p.StartTimeout})
	if err != nil {
		return err
	}
	defer proc.Close()
	req, err := p.runRequest(info, srv.Addr())
	if err != nil {
		return err
	}
	cctx, stop := proc.Context(ctx)
	defer stop()
	client := pulumirpc.NewLanguageRuntimeClient(proc.Conn())
	if err := p.handshake(cctx, client, srv.Addr()); err != nil {
		return p.failure(proc, "Handshake", err)
	}
	if err := p.installDependencies(cctx, client, req.GetInfo()); err != nil {
		return p.failure(proc, "InstallDependencies", err)
	}
	if err := p.checkPlugins(cctx, client, req.GetInfo()); err != nil {
		return p.failure(proc, "GetRequiredPackages", err)
	}
	resp, err := client.Run(cctx, req)
	if err != nil {
		return p.failure(proc, "Run", err)
	}
	switch {
	case resp.GetBail():
		return ErrBail
	case resp.GetError() != "":
		return fmt.Errorf("the %s program failed: %s", p.Runtime, resp.GetError())
	}
	return nil
}

// handshake introduces the engine to the language host; hosts that predate
// the handshake answer UNIMPLEMENTED, which is fine.
func (p *Program) handshake(ctx context.Context, client pulumirpc.LanguageRuntimeClient, engine string) error {
	req := &pulumirpc.LanguageHandshakeRequest{EngineAddress: engine}
	if p.RootDirectory != "" {
		req.RootDirectory = &p.RootDirectory
	}
	if p.ProgramDirectory != "" {
		req.ProgramDirectory = &p.ProgramDirectory
	}
	_, err := client.Handshake(ctx, req)
	if status.Code(err) == codes.Unimplemented {
		return nil
	}
	return err
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

// exitWait is how long a call that failed as the language host went away
// waits for its exit to be seen, to report how it exited.
const exitWait = 2 * time.Second

// failure explains a failed call to the language host: when the host died,
// with how it exited and its last lines on stderr.
func (p *Program) failure(proc *launch.Process, op string, err error) error {
	switch status.Code(err) {
	case codes.Unavailable, codes.Canceled, codes.Internal:
		select {
		case <-proc.Done():
		case <-time.After(exitWait):
		}
	}
	if exit := proc.ExitError(); exit != nil {
		return fmt.Errorf("the %s language host exited during %s: %w", p.Runtime, op, exit)
	}
	if st, ok := status.FromError(err); ok {
		return fmt.Errorf("the %s language host failed %s: %s", p.Runtime, op, st.Message())
	}
	return err
}
