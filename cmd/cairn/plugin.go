package main

import (
	"fmt"
	"maps"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/semver"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/enginesvc"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/install"
	"github.com/cairn-iac/cairn/plugins/langhost"
	"github.com/cairn-iac/cairn/plugins/langhost/runtimes"
	"github.com/cairn-iac/cairn/plugins/serve"
)

func pluginCommand() *cli.Command {
	return &cli.Command{
		Name:  "plugin",
		Usage: "list, install and remove plugins, and serve built-in providers as plugins",
		Subcommands: []*cli.Command{
			{
				Name: "ls", Usage: "show which provider serves each package, the active one marked with *",
				UsageText: "cairn plugin ls\ncairn plugin ls --json",
				Flags:     []cli.Flag{jsonFlag},
				Action:    pluginList,
			},
			{
				Name: "install", Usage: "download a plugin into $CAIRN_HOME/plugins, or install it from a tarball",
				ArgsUsage: "[KIND] NAME VERSION",
				UsageText: "cairn plugin install resource aws 6.0.0\n" +
					"cairn plugin install aws 6.0.0 --server https://example.com/releases\n" +
					"cairn plugin install aws 6.0.0 --file pulumi-resource-aws-v6.0.0-linux-amd64.tar.gz --checksum SHA256",
				Description: `GITHUB_TOKEN, when set, is sent to GitHub's API at api.github.com, over
https only: never to another host a download URL names or redirects to.
CAIRN_GITHUB_HOSTS (comma-separated host[:port]) names GitHub Enterprise API
hosts to send it to as well. A download over plain http without --checksum
is a warning.`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "server", Usage: "download from this URL (http(s) or github://api.github.com/OWNER[/REPO]) instead of Pulumi's releases"},
					&cli.StringFlag{Name: "file", Aliases: []string{"f"}, Usage: "install from this tarball instead of downloading"},
					&cli.StringFlag{Name: "checksum", Usage: "the SHA-256 the tarball must have, in hex"},
				},
				Action: pluginInstall,
			},
			{
				Name: "rm", Usage: "remove installed plugins from $CAIRN_HOME/plugins",
				ArgsUsage: "[KIND] NAME [VERSION]",
				UsageText: "cairn plugin rm aws 6.0.0   # one version\ncairn plugin rm resource aws   # every version",
				Action:    pluginRemove,
			},
			{
				Name: "serve", Usage: "serve a built-in provider over the Pulumi provider protocol",
				ArgsUsage: "PACKAGE [ENGINE-ADDRESS]",
				UsageText: "cairn plugin serve random   # prints its port, serves until killed",
				Action:    pluginServe,
			},
		},
	}
}

func pluginList(c *cli.Context) error {
	s, err := newSession(c, false)
	if err != nil {
		return err
	}
	var project []workspace.PluginRef
	var packages map[string]workspace.PackageSpec
	if p, err := workspace.LoadProject(s.cwd); err == nil {
		project, packages = p.Plugins.Providers, p.Packages
	}
	r := host.NewResolver(host.ResolverOptions{Project: project, Builtins: s.builtins(nil, nil), Dirs: locate.DefaultDirs(), Isolate: s.isolated()})
	defer r.Close()
	type entry struct {
		Package  string `json:"package"`
		Kind     string `json:"kind"`
		Version  string `json:"version,omitempty"`
		Source   string `json:"source"`
		Size     int64  `json:"size,omitempty"`
		Path     string `json:"path,omitempty"`
		Isolated bool   `json:"isolated,omitempty"`
		Active   bool   `json:"active"`
	}
	var out []entry
	list := r.List()
	for _, name := range slices.Sorted(maps.Keys(packages)) {
		// A package served by a parameterized provider: the plugin that
		// serves it is the one its source resolves to.
		spec := packages[name]
		e := entry{Package: name, Kind: string(locate.Resource), Version: spec.Version, Active: true,
			Source: fmt.Sprintf("%s parameterized with %q", spec.Source, spec.Parameters)}
		for _, b := range list {
			if b.Pkg == spec.Source && b.Active {
				e.Path = b.Path
			}
		}
		out = append(out, e)
	}
	for _, e := range list {
		var size int64
		if e.Path != "" {
			size = locate.Size(locate.Candidate{Version: e.Version, Path: e.Path})
		}
		out = append(out, entry{e.Pkg, string(locate.Resource), e.Version, string(e.Source), size, e.Path, e.Isolated, e.Active})
	}
	// Language hosts: Cairn's own, and Pulumi's found on disk; the one
	// that runs each runtime's programs is marked (CAIRN_LANGUAGE_HOST).
	dirs := locate.DefaultDirs()
	active := map[string]string{}
	for _, rt := range runtimes.Names {
		choice, err := langhost.Choose(rt, dirs)
		if err == nil {
			active[rt] = choice.Path
		}
		tool, _ := runtimes.Tool(rt)
		out = append(out, entry{Package: rt, Kind: string(locate.Language), Source: string(host.SourceBuiltin), Path: tool, Active: err == nil && choice.BuiltIn})
	}
	for _, c := range dirs.All(locate.Language) {
		path, ok := active[c.Name]
		out = append(out, entry{c.Name, string(c.Kind), c.Version, string(host.SourcePlugin), locate.Size(c), c.Path, false, ok && path == c.Path})
	}
	if c.Bool("json") {
		return writeJSON(s.stdout, out)
	}
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "  NAME\tKIND\tVERSION\tSOURCE\tSIZE\tPATH")
	for _, e := range out {
		mark, src, size := " ", e.Source, "-"
		if e.Active {
			mark = "*"
		}
		if e.Isolated {
			src += " (process)"
		}
		if e.Size > 0 {
			size = fmt.Sprintf("%.1f MB", float64(e.Size)/1e6)
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\t%s\t%s\n", mark, e.Package, e.Kind, orDash(e.Version), src, size, e.Path)
	}
	return w.Flush()
}

// pluginArgs reads [KIND] NAME [VERSION]; KIND defaults to resource, and
// VERSION must be a full semantic version (1.2.3, 1.2.3-beta.1).
func pluginArgs(c *cli.Context, needVersion bool) (locate.Kind, string, string, error) {
	args := c.Args().Slice()
	kind := locate.Resource
	if len(args) > 0 && (args[0] == string(locate.Resource) || args[0] == string(locate.Language)) {
		kind, args = locate.Kind(args[0]), args[1:]
	}
	usage := fmt.Sprintf("usage: cairn plugin %s %s", c.Command.Name, c.Command.ArgsUsage)
	switch {
	case len(args) == 3:
		return "", "", "", &exitError{code: 2, msg: fmt.Sprintf("%q is not a kind of plugin Cairn installs: give resource or language; %s", args[0], usage)}
	case len(args) == 0 || len(args) > 2:
		return "", "", "", &exitError{code: 2, msg: usage}
	case len(args) == 1 && needVersion:
		return "", "", "", &exitError{code: 2, msg: fmt.Sprintf("which version of %s? %s, e.g. cairn plugin install %s %s 1.0.0", args[0], usage, kind, args[0])}
	case len(args) == 1:
		return kind, args[0], "", nil
	}
	version := strings.TrimPrefix(args[1], "v")
	if c := semver.Canonical("v" + version); c == "" || !strings.HasPrefix("v"+version, c) {
		return "", "", "", &exitError{code: 2, msg: fmt.Sprintf("%q is not a version: give MAJOR.MINOR.PATCH, such as 1.0.0 or 1.0.0-beta.1; %s", args[1], usage)}
	}
	return kind, args[0], version, nil
}

// pluginRequest is what plugin install and rm work on: the plugin named by
// the arguments and the installer of $CAIRN_HOME/plugins.
type pluginRequest struct {
	s             *session
	kind          locate.Kind
	name, version string
	in            *install.Installer
}

func newPluginRequest(c *cli.Context, needVersion bool) (*pluginRequest, error) {
	s, err := newSession(c, false)
	if err != nil {
		return nil, err
	}
	r := &pluginRequest{s: s}
	if r.kind, r.name, r.version, err = pluginArgs(c, needVersion); err != nil {
		return nil, err
	}
	r.in, err = s.installer()
	return r, err
}

func pluginInstall(c *cli.Context) error {
	r, err := newPluginRequest(c, true)
	if err != nil {
		return err
	}
	spec := install.Spec{Kind: r.kind, Name: r.name, Version: r.version, Server: c.String("server"), Checksum: c.String("checksum")}
	var dir string
	if f := c.String("file"); f != "" {
		dir, err = r.in.InstallFile(spec, f)
	} else {
		dir, err = r.in.Install(c.Context, spec)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(r.s.stdout, "installed %s in %s\n", spec, dir)
	return nil
}

func pluginRemove(c *cli.Context) error {
	r, err := newPluginRequest(c, false)
	if err != nil {
		return err
	}
	removed, err := r.in.Remove(r.kind, r.name, r.version)
	for _, dir := range removed {
		fmt.Fprintf(r.s.stdout, "removed %s\n", dir)
	}
	if err == nil && len(removed) == 0 {
		what := r.name
		if r.version != "" {
			what += " v" + r.version
		}
		err = fmt.Errorf("no %s plugin %s is installed in %s; cairn plugin ls lists them", r.kind, what, r.in.Dir)
	}
	return err
}

func pluginServe(c *cli.Context) error {
	s, err := newSession(c, false)
	if err != nil {
		return err
	}
	pkg := c.Args().First()
	var diag func(deploy.DiagEvent)
	if c.NArg() > 1 { // the engine's address: what provisioners print goes to its log
		log, closeLog, err := enginesvc.Dial(c.Args().Get(c.NArg() - 1))
		if err != nil {
			return err
		}
		defer closeLog()
		diag = log
	}
	f, ok := provider.Select(s.builtins(&stackReader{s: s}, diag), pkg, "")
	if !ok {
		return &exitError{code: 2, msg: fmt.Sprintf("no built-in provider for package %q; built in are pulumi, random, command and terraform-provider", pkg)}
	}
	ctx, stop := signal.NotifyContext(c.Context, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return serve.Main(ctx, f, s.stdout)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
