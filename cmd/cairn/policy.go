package main

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/locate"
	langpolicy "github.com/cairn-iac/cairn/lang/policy"
	"github.com/cairn-iac/cairn/plugins/analyzer"
)

var (
	policyFlag     = &cli.StringSliceFlag{Name: "policy", Usage: "check resources against the rules of the policy `FILE` (YAML or HCL), besides those in policies/ (repeatable)"}
	policyPackFlag = &cli.StringSliceFlag{Name: "policy-pack", Usage: "run the Pulumi policy pack at `PATH`: a folder with a PulumiPolicy.yaml, or an analyzer plugin (repeatable)"}
	policyConfFlag = &cli.StringSliceFlag{Name: "policy-pack-config", Usage: "configure the policy pack given in the same position with the JSON `FILE` (levels and properties by policy, as Pulumi's)"}
)

// analyzers loads the policies that apply to the operation: the project's
// policy files, those of --policy, and the packs of --policy-pack. The
// caller closes them.
func (r *operation) analyzers() ([]policy.Analyzer, error) {
	schemas := eval.ProviderSchemas(r.host)
	packs, files, diags := langpolicy.Load(r.s.project.Dir, r.c.StringSlice("policy"), schemas)
	if diags.HasErrors() {
		return nil, &eval.DiagnosticsError{Diags: diags, Files: files}
	}
	w := &eval.DiagnosticWriter{Files: files, Width: 100}
	packs = langpolicy.WarnUnmatchedTypes(packs, schemas, func(d *hcl.Diagnostic) { r.relay.diag(warningEvent(w, d)) })
	confs := r.c.StringSlice("policy-pack-config")
	paths := r.c.StringSlice("policy-pack")
	if len(confs) > len(paths) {
		return nil, usageError(r.c, "--policy-pack-config is given %d times for %d --policy-pack; give one for each pack, in the same order", len(confs), len(paths))
	}
	start, err := pluginStartTimeout()
	if err != nil {
		return nil, err
	}
	// Packs read the stack's configuration, as Pulumi gives it to them.
	config, secretKeys, err := provider.ConfigStrings(r.opts.Config)
	if err != nil {
		closeAll(packs)
		return nil, err
	}
	for i, path := range paths {
		opts := analyzer.Options{Stack: r.s.stack, Project: r.s.project.Name, Organization: r.opts.Organization, DryRun: r.kind == opPreview,
			Config: config, SecretKeys: secretKeys,
			Diag: r.relay.diag, Dirs: locate.DefaultDirs(), Log: r.s.pluginLog(), StartTimeout: start}
		if i < len(confs) {
			if opts.Policies, err = analyzer.ReadConfig(confs[i]); err != nil {
				closeAll(packs)
				return nil, err
			}
		}
		a, err := analyzer.Start(r.c.Context, path, opts)
		if err != nil {
			closeAll(packs)
			return nil, err
		}
		packs = append(packs, a)
	}
	return packs, nil
}

func closeAll(as []policy.Analyzer) {
	for _, a := range as {
		_ = a.Close()
	}
}
