package langhost

import (
	"context"
	"errors"
	"fmt"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

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

// checkPlugins asks the language host which provider plugins the program
// needs, installs those the Host has not from the download URL the
// language host names, and fails, naming each one and how to install it,
// when some are missing still.
func (p *Program) checkPlugins(ctx context.Context, h host, info *pulumirpc.ProgramInfo) error {
	installer, ok := p.Host.(PluginInstaller)
	if !ok {
		return nil
	}
	deps, err := h.RequiredPackages(ctx, info)
	if err != nil {
		return fmt.Errorf("listing the plugins the %s program needs: %w", p.Runtime, err)
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
