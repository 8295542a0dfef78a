package langhost

import (
	"fmt"
	"os"
	"slices"

	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/plugins/langhost/runtimes"
)

// HostEnv is the variable that says who runs the programs of the runtimes
// Cairn has a language host for (nodejs, go, python): "cairn", the
// default, runs them with Cairn's own; "pulumi" with Pulumi's,
// pulumi-language-<runtime>, found as plugins are. Programs of other
// runtimes always run with Pulumi's.
const HostEnv = "CAIRN_LANGUAGE_HOST"

// Choice is the language host that runs a runtime's programs.
type Choice struct {
	Runtime string
	// BuiltIn is set for Cairn's own host.
	BuiltIn bool
	// Path is Pulumi's host binary, or the command Cairn's host runs
	// programs with (node, go, python3); "" when it is missing from PATH.
	Path string
	// Version is the version of Pulumi's host, when its folder says.
	Version string
}

func (c Choice) String() string {
	if c.BuiltIn {
		tool := c.Path
		if tool == "" {
			tool = "missing from PATH"
		}
		return fmt.Sprintf("Cairn's built-in %s language host (%s)", c.Runtime, tool)
	}
	return fmt.Sprintf("Pulumi's %s (%s)", locate.Language.Binary(c.Runtime), c.Path)
}

// Choose returns the language host that runs programs of runtime, as
// HostEnv asks: Cairn's own when it has one, unless Pulumi's is asked
// for; else Pulumi's found in dirs. It fails when that one is missing.
func Choose(runtime string, dirs locate.Dirs) (Choice, error) {
	want := os.Getenv(HostEnv)
	if want != "" && want != "cairn" && want != "pulumi" {
		return Choice{}, fmt.Errorf("%s=%s: set it to cairn (Cairn's own language hosts, the default) or pulumi (Pulumi's pulumi-language-<runtime>)", HostEnv, want)
	}
	if want != "pulumi" && slices.Contains(runtimes.Names, runtime) {
		tool, _ := runtimes.Tool(runtime)
		return Choice{Runtime: runtime, BuiltIn: true, Path: tool}, nil
	}
	host, ok := locate.Best(dirs.Find(locate.Language, runtime), "")
	if !ok {
		hint := "it comes with the Pulumi CLI for its language"
		if slices.Contains(runtimes.Names, runtime) {
			hint = fmt.Sprintf("%s=%s asks for it; unset it to use Cairn's own", HostEnv, want)
		}
		return Choice{}, fmt.Errorf("no language host for runtime %q: install %s (%s) on PATH or in $CAIRN_HOME/plugins",
			runtime, locate.Language.Binary(runtime), hint)
	}
	return Choice{Runtime: runtime, Path: host.Path, Version: host.Version}, nil
}

// ProviderDirs returns the folders that hold the providers a program's SDK
// ships, for the provider host to look in: for nodejs, @pulumi/pulumi's,
// whose pulumi-resource-pulumi-nodejs serves dynamic providers.
func ProviderDirs(runtime, programDir string) []string {
	if runtime != "nodejs" {
		return nil
	}
	if dir := runtimes.NodeSDKDir(programDir); dir != "" {
		return []string{dir}
	}
	return nil
}
