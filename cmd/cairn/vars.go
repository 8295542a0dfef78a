package main

import (
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// varArgs collects the -var and -var-file flags of a command in the order
// given, which Terraform's precedence follows: the last value wins.
type varArgs struct {
	file bool
	list *[]langhcl.VarArg
}

// Set implements flag.Value.
func (v varArgs) Set(s string) error {
	*v.list = append(*v.list, langhcl.VarArg{File: v.file, Value: s})
	return nil
}

// String implements flag.Value.
func (v varArgs) String() string {
	if v.list == nil {
		return ""
	}
	var out []string
	for _, a := range *v.list {
		if a.File == v.file {
			out = append(out, a.Value)
		}
	}
	return strings.Join(out, " ")
}

// varFlags are the -var and -var-file flags of a command that runs a
// program; both add to one list.
func varFlags() []cli.Flag {
	list := &[]langhcl.VarArg{}
	return []cli.Flag{
		&cli.GenericFlag{Name: "var", Value: varArgs{list: list},
			Usage: "set a variable of a Terraform-style HCL program: `NAME=VALUE` (repeatable; over the stack's configuration)"},
		&cli.GenericFlag{Name: "var-file", Value: varArgs{file: true, list: list},
			Usage: "read variable values from a .tfvars or .tfvars.json `FILE` (repeatable; over the stack's configuration)"},
	}
}

// commandVars returns the command's -var and -var-file flags in order,
// the files' paths relative to --cwd, as Terraform's -chdir makes them.
func (s *session) commandVars(c *cli.Context) []langhcl.VarArg {
	v, ok := c.Generic("var").(varArgs)
	if !ok || v.list == nil {
		return nil
	}
	out := make([]langhcl.VarArg, len(*v.list))
	for i, a := range *v.list {
		if a.File && !filepath.IsAbs(a.Value) {
			a.Value = filepath.Join(s.cwd, a.Value)
		}
		out[i] = a
	}
	return out
}
