package main

import (
	"fmt"
	"os/signal"
	"syscall"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/locate"
	"github.com/cairn-iac/cairn/plugins/serve"
)

func pluginCommand() *cli.Command {
	return &cli.Command{
		Name:  "plugin",
		Usage: "list provider plugins, and serve built-in providers as plugins",
		Subcommands: []*cli.Command{
			{
				Name: "ls", Usage: "show which provider serves each package, the active one marked with *",
				UsageText: "cairn plugin ls\ncairn plugin ls --json",
				Flags:     []cli.Flag{jsonFlag},
				Action:    pluginList,
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
	if p, err := workspace.LoadProject(s.cwd); err == nil {
		project = p.Plugins.Providers
	}
	r := host.NewResolver(host.ResolverOptions{Project: project, Builtins: builtins(nil), Dirs: locate.DefaultDirs(), Isolate: s.isolated()})
	defer r.Close()
	list := r.List()
	if c.Bool("json") {
		type entry struct {
			Package  string `json:"package"`
			Version  string `json:"version,omitempty"`
			Source   string `json:"source"`
			Path     string `json:"path,omitempty"`
			Isolated bool   `json:"isolated,omitempty"`
			Active   bool   `json:"active"`
		}
		out := make([]entry, 0, len(list))
		for _, e := range list {
			out = append(out, entry{e.Pkg, e.Version, string(e.Source), e.Path, e.Isolated, e.Active})
		}
		return writeJSON(s.stdout, out)
	}
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PACKAGE\tVERSION\tSOURCE\tPATH")
	for _, e := range list {
		mark, src := " ", string(e.Source)
		if e.Active {
			mark = "*"
		}
		if e.Isolated {
			src += " (process)"
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\n", mark, e.Pkg, orDash(e.Version), src, e.Path)
	}
	return w.Flush()
}

func pluginServe(c *cli.Context) error {
	s, err := newSession(c, false)
	if err != nil {
		return err
	}
	pkg := c.Args().First()
	f, ok := provider.Select(builtins(&stackReader{s: s}), pkg, "")
	if !ok {
		return &exitError{code: 2, msg: fmt.Sprintf("no built-in provider for package %q; built in are pulumi, random and command", pkg)}
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
