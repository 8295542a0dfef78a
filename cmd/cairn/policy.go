package main

import (
	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/eval"
	langpolicy "github.com/cairn-iac/cairn/lang/policy"
)

var policyFlag = &cli.StringSliceFlag{Name: "policy", Usage: "check resources against the rules of the policy `FILE` (YAML or HCL), besides those in policies/ (repeatable)"}

// analyzers loads the policies that apply to the operation: the project's
// policy files and those of --policy.
func (s *session) analyzers(c *cli.Context) ([]policy.Analyzer, error) {
	packs, files, diags := langpolicy.Load(s.project.Dir, c.StringSlice("policy"))
	if diags.HasErrors() {
		return nil, &eval.DiagnosticsError{Diags: diags, Files: files}
	}
	return packs, nil
}
