package langhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
)

// PluginInstaller is implemented by a Program's Host when it can make sure,
// without starting anything, that it has a provider for a package,
// installing the plugin from url ("" means Pulumi's release locations)
// when it is missing; the plugins the program needs are then made ready
// before it runs. Ensure fails with a *provider.NotFoundError when the
// plugin is missing and installation is off.
type PluginInstaller interface {
	Ensure(ctx context.Context, pkg, version, url string) error
}

// installDependencies installs the program's dependencies with the language
// host's InstallDependencies when they are missing, which is when the host
// cannot list them (GetProgramDependencies fails: Node.js's npm ls does
// when node_modules is missing). Hosts that implement neither are left to
// report missing dependencies from Run. What the installation prints goes
// to p.Output.
func (p *Program) installDependencies(ctx context.Context, client pulumirpc.LanguageRuntimeClient, info *pulumirpc.ProgramInfo) error {
	_, err := client.GetProgramDependencies(ctx, &pulumirpc.GetProgramDependenciesRequest{Info: info})
	if err == nil || status.Code(err) == codes.Unimplemented {
		return nil
	}
	out := p.Output
	if out == nil {
		out = io.Discard
	}
	fmt.Fprintf(out, "Installing the dependencies of the %s program (listing them failed: %s)...\n", p.Runtime, status.Convert(err).Message())
	stream, err := client.InstallDependencies(ctx, &pulumirpc.InstallDependenciesRequest{Info: info})
	if err != nil {
		return err
	}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if status.Code(err) == codes.Unimplemented {
				return nil
			}
			return fmt.Errorf("installing the dependencies of the %s program: %s", p.Runtime, status.Convert(err).Message())
		}
		_, _ = out.Write(resp.GetStdout())
		_, _ = out.Write(resp.GetStderr())
	}
}

// checkPlugins asks the language host which provider plugins the program
// needs (GetRequiredPackages, or GetRequiredPlugins from hosts that predate
// it), installs those the host has not from the download URL the language
// host names, and fails, naming each one and how to install it, when some
// are missing still.
func (p *Program) checkPlugins(ctx context.Context, client pulumirpc.LanguageRuntimeClient, info *pulumirpc.ProgramInfo) error {
	installer, ok := p.Host.(PluginInstaller)
	if !ok {
		return nil
	}
	var deps []dependency
	pkgs, err := client.GetRequiredPackages(ctx, &pulumirpc.GetRequiredPackagesRequest{Info: info})
	switch status.Code(err) {
	case codes.OK:
		for _, d := range pkgs.GetPackages() {
			deps = append(deps, d)
		}
	case codes.Unimplemented:
		//lint:ignore SA1019 hosts that predate GetRequiredPackages answer only this, which Pulumi's engine still calls
		plugins, err := client.GetRequiredPlugins(ctx, &pulumirpc.GetRequiredPluginsRequest{Info: info})
		if err != nil && status.Code(err) != codes.Unimplemented {
			return p.listingFailed(err)
		}
		for _, d := range plugins.GetPlugins() {
			deps = append(deps, d)
		}
	default:
		return p.listingFailed(err)
	}
	var missing, commands []string
	var failed []error
	for _, d := range deps {
		if d.GetKind() != "resource" {
			continue
		}
		version := strings.TrimPrefix(d.GetVersion(), "v")
		err := installer.Ensure(ctx, d.GetName(), version, d.GetServer())
		var notFound *provider.NotFoundError
		switch {
		case errors.As(err, &notFound):
			missing = append(missing, strings.TrimSpace(d.GetName()+" "+version))
			commands = append(commands, strings.TrimSpace("cairn plugin install resource "+d.GetName()+" "+version))
		case err != nil:
			failed = append(failed, err)
		}
	}
	if len(missing) > 0 {
		failed = append(failed, fmt.Errorf("the program needs provider plugins that are not installed: %s; install them with %s",
			strings.Join(missing, ", "), strings.Join(commands, " and ")))
	}
	return errors.Join(failed...)
}

// dependency is a plugin GetRequiredPackages or GetRequiredPlugins names.
type dependency interface {
	GetName() string
	GetKind() string
	GetVersion() string
	GetServer() string
}

func (p *Program) listingFailed(err error) error {
	return fmt.Errorf("the %s language host could not list the plugins the program needs: %s", p.Runtime, status.Convert(err).Message())
}
