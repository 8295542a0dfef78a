package main

import (
	"errors"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/lsp"
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

It opens no backend and reads no stack: it never changes state. The
schemas of the built-in providers are at hand at once; those of plugins
load in the background from the plugins on disk, which are never
installed. docs/editors.md shows how to set up VS Code, Neovim and Helix.

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
	s := &session{c: c, stderr: c.App.ErrWriter}
	err = lsp.Serve(c.Context, c.App.Reader, c.App.Writer, lsp.Options{
		Builtins:    s.builtins(nil, nil),
		Dirs:        locate.DefaultDirs(),
		SchemaCache: filepath.Join(home, "schemas"),
		Log:         s.pluginLog(),
		Version:     version,
	})
	if errors.Is(err, lsp.ErrNoShutdown) {
		return &exitError{code: 1, msg: err.Error()}
	}
	return err
}
