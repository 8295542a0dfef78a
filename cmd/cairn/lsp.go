package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

func lspCommand() *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "serve the Language Server Protocol on stdin and stdout, for editors",
		Description: `An editor starts cairn lsp and speaks the Language Server Protocol to it over
its standard input and output. For YAML programs (Pulumi.yaml, Main.yaml,
*.cairn.yaml) and HCL programs (*.hcl, and *.tf files on their own) it gives
the diagnostics a preview would stop at, completion of resource types,
properties, values, references, functions and config keys from the package
schemas, documentation on hover, definitions of references (into modules),
document symbols, formatting of HCL, and quick fixes that apply the
diagnostics' suggestions.

It opens no backend and reads no stack: it never changes state. Opening a
file runs nothing: the schemas of the built-in providers are at hand at
once, and those of plugins and Terraform providers are read from Cairn's
schema cache, where cairn preview keeps them; the server never installs
or starts a plugin, and says which schemas it lacks and what keeps them.
docs/editors.md shows how to set up VS Code, Neovim and Helix.

cairn lsp schema prints the JSON Schema of Pulumi.yaml, for editors whose
YAML support validates files by schema.`,
		UsageText: "cairn lsp   # started by the editor\ncairn lsp schema > pulumi-yaml.schema.json",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "stdio", Usage: "speak over stdin and stdout (the only way; some editors ask for it)"},
		},
		Action: runLSP,
		Subcommands: []*cli.Command{{
			Name:      "schema",
			Usage:     "print the JSON Schema of Pulumi.yaml and of YAML programs",
			UsageText: "cairn lsp schema > pulumi-yaml.schema.json",
			Action: func(c *cli.Context) error {
				_, err := c.App.Writer.Write(lsp.ProjectSchema)
				return err
			},
		}},
	}
}

func runLSP(c *cli.Context) error {
	home, err := cairnHome()
	if err != nil {
		return err
	}
	s := &session{c: c, stderr: c.App.ErrWriter, home: home}
	// The server reads schemas through this alone: it installs and starts
	// no plugin, and writes nothing.
	schemas := host.NewCachedSchemas(host.CachedSchemasOptions{
		Builtins:    s.builtins(nil, nil),
		Dirs:        locate.DefaultDirs(),
		SchemaCache: s.schemaCache(),
		Packages:    map[string]host.PackageSchemas{tfplugin.Name: tfplugin.CachedSchemas{SchemaDir: s.terraformSchemas(), CairnVersion: buildVersion()}},
	})
	err = lsp.Serve(c.Context, c.App.Reader, c.App.Writer, lsp.Options{Schemas: schemas, Log: s.pluginLog(), Version: version})
	if errors.Is(err, lsp.ErrNoShutdown) {
		return &exitError{code: 1, msg: err.Error()}
	}
	return err
}
