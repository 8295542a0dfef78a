package langhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/internal/locate"
)

// pluginHost is Pulumi's language host for a runtime,
// pulumi-language-<runtime>, running as a plugin process.
type pluginHost struct {
	runtime string
	proc    *launch.Process
	client  pulumirpc.LanguageRuntimeClient
}

// startPlugin starts Pulumi's language host at path with the engine's
// address, and introduces the engine to it.
func (p *Program) startPlugin(ctx context.Context, path, engine string) (*pluginHost, error) {
	proc, err := launch.Start(ctx, launch.Spec{Name: locate.Language.Binary(p.Runtime), Path: path,
		Args: []string{engine}, Dir: p.ProgramDirectory, Log: p.Log, StartTimeout: p.StartTimeout})
	if err != nil {
		return nil, err
	}
	h := &pluginHost{runtime: p.Runtime, proc: proc, client: pulumirpc.NewLanguageRuntimeClient(proc.Conn())}
	if err := h.handshake(ctx, p.RootDirectory, p.ProgramDirectory, engine); err != nil {
		proc.Close()
		return nil, h.failure("Handshake", err)
	}
	return h, nil
}

// call runs f with a context that ends when the host dies, explaining
// its failure.
func (h *pluginHost) call(ctx context.Context, op string, f func(context.Context) error) error {
	cctx, stop := h.proc.Context(ctx)
	defer stop()
	if err := f(cctx); err != nil {
		return h.failure(op, err)
	}
	return nil
}

// handshake introduces the engine to the language host; hosts that predate
// the handshake answer UNIMPLEMENTED, which is fine.
func (h *pluginHost) handshake(ctx context.Context, root, program, engine string) error {
	req := &pulumirpc.LanguageHandshakeRequest{EngineAddress: engine}
	if root != "" {
		req.RootDirectory = &root
	}
	if program != "" {
		req.ProgramDirectory = &program
	}
	return h.call(ctx, "Handshake", func(ctx context.Context) error {
		_, err := h.client.Handshake(ctx, req)
		if status.Code(err) == codes.Unimplemented {
			return nil
		}
		return err
	})
}

// Install installs the program's dependencies with the language host's
// InstallDependencies when they are missing, which is when the host cannot
// list them (GetProgramDependencies fails: Node.js's npm ls does when
// node_modules is missing). Hosts that implement neither are left to
// report missing dependencies from Run.
func (h *pluginHost) Install(ctx context.Context, info *pulumirpc.ProgramInfo, out io.Writer) error {
	return h.call(ctx, "InstallDependencies", func(ctx context.Context) error {
		_, err := h.client.GetProgramDependencies(ctx, &pulumirpc.GetProgramDependenciesRequest{Info: info})
		if err == nil || status.Code(err) == codes.Unimplemented {
			return nil
		}
		fmt.Fprintf(out, "Installing the dependencies of the %s program (listing them failed: %s)...\n", h.runtime, status.Convert(err).Message())
		stream, err := h.client.InstallDependencies(ctx, &pulumirpc.InstallDependenciesRequest{Info: info})
		if err != nil {
			return err
		}
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) || status.Code(err) == codes.Unimplemented {
				return nil
			}
			if err != nil {
				return fmt.Errorf("installing the dependencies of the %s program: %s", h.runtime, status.Convert(err).Message())
			}
			_, _ = out.Write(resp.GetStdout())
			_, _ = out.Write(resp.GetStderr())
		}
	})
}

// RequiredPackages asks GetRequiredPackages, or GetRequiredPlugins of
// hosts that predate it.
func (h *pluginHost) RequiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	var deps []*pulumirpc.PackageDependency
	err := h.call(ctx, "GetRequiredPackages", func(ctx context.Context) error {
		pkgs, err := h.client.GetRequiredPackages(ctx, &pulumirpc.GetRequiredPackagesRequest{Info: info})
		if status.Code(err) != codes.Unimplemented {
			deps = pkgs.GetPackages()
			return err
		}
		//lint:ignore SA1019 hosts that predate GetRequiredPackages answer only this, which Pulumi's engine still calls
		plugins, err := h.client.GetRequiredPlugins(ctx, &pulumirpc.GetRequiredPluginsRequest{Info: info})
		for _, d := range plugins.GetPlugins() {
			deps = append(deps, &pulumirpc.PackageDependency{Name: d.GetName(), Kind: d.GetKind(), Version: d.GetVersion(), Server: d.GetServer()})
		}
		if status.Code(err) == codes.Unimplemented {
			return nil
		}
		return err
	})
	return deps, err
}

// Run runs the program.
func (h *pluginHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	var resp *pulumirpc.RunResponse
	err := h.call(ctx, "Run", func(ctx context.Context) (err error) {
		resp, err = h.client.Run(ctx, req)
		return err
	})
	return resp, err
}

// Close stops the language host.
func (h *pluginHost) Close() error { return h.proc.Close() }

// exitWait is how long a call that failed as the language host went away
// waits for its exit to be seen, to report how it exited.
const exitWait = 2 * time.Second

// failure explains a failed call to the language host: when the host died,
// with how it exited and its last lines on stderr.
func (h *pluginHost) failure(op string, err error) error {
	switch status.Code(err) {
	case codes.Unavailable, codes.Canceled, codes.Internal:
		select {
		case <-h.proc.Done():
		case <-time.After(exitWait):
		}
	}
	if exit := h.proc.ExitError(); exit != nil {
		return fmt.Errorf("the %s language host exited during %s: %w", h.runtime, op, exit)
	}
	if st, ok := status.FromError(err); ok {
		return fmt.Errorf("the %s language host failed %s: %s", h.runtime, op, st.Message())
	}
	return err
}
