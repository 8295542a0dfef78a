// Package policy loads policy files, rules written in YAML or HCL that need
// no plugin: every policies/*.yaml and policies/*.hcl beside a project, and
// files named explicitly. lang/yaml and lang/hcl parse them into
// eval.PolicyPack analyzers for the engine.
//
//	packs, files, diags := policy.Load(projectDir, []string{"extra.hcl"}, schemas)
//	if diags.HasErrors() {
//		return &eval.DiagnosticsError{Diags: diags, Files: files}
//	}
//	opts.Analyzers = append(opts.Analyzers, packs...)
//
// WarnUnmatchedTypes wraps the packs so that a rule whose type pattern
// selects no resource type of the program's packages is a warning.
package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	enginepolicy "github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
	"github.com/cairn-iac/cairn/lang/yaml"
)

// Dir is the folder of a project whose policy files apply to it.
const Dir = "policies"

// Load reads the policy files of the project in dir and the extra files
// (relative to the current directory), one pack each. File names in ranges
// are relative to dir when they are inside it. schemas, when not nil, tell
// the packs the inputs of resource types, so that a name a rule refers to
// that is not one is an error (see eval.PolicyPack.Schemas). It returns the
// packs, the sources of every file, and the diagnostics.
func Load(dir string, extra []string, schemas eval.SchemaSource) ([]enginepolicy.Analyzer, map[string]*hcl.File, hcl.Diagnostics) {
	var paths []string
	for _, pat := range []string{"*.yaml", "*.yml", "*.hcl"} {
		found, _ := filepath.Glob(filepath.Join(dir, Dir, pat))
		paths = append(paths, found...)
	}
	sort.Strings(paths)
	paths = append(paths, extra...)

	var packs []enginepolicy.Analyzer
	files := map[string]*hcl.File{}
	var diags hcl.Diagnostics
	names := map[string]string{}
	for _, path := range paths {
		name := path
		if abs, err := filepath.Abs(path); err == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
				name = rel
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read policy file", Detail: err.Error()})
			continue
		}
		var pack *eval.PolicyPack
		var more hcl.Diagnostics
		switch filepath.Ext(path) {
		case ".hcl":
			pack, more = langhcl.ParsePolicies(name, src, dir)
		case ".yaml", ".yml":
			pack, more = yaml.ParsePolicies(name, src, dir)
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown policy file",
				Detail: fmt.Sprintf("%s is neither YAML (.yaml, .yml) nor HCL (.hcl); policy files are written in one of them.", path)})
			continue
		}
		pack.Schemas = schemas
		for n, f := range pack.Files {
			files[n] = f
		}
		diags = append(diags, more...)
		if other, dup := names[pack.Pack]; dup {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate policy pack",
				Detail: fmt.Sprintf("%s and %s both hold the policy pack %q; give one of them another name.", other, name, pack.Pack)})
		}
		names[pack.Pack] = name
		packs = append(packs, pack)
	}
	return packs, files, diags
}
