package tftest

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// File is one test file: its file-level variables and providers, and its
// runs in order.
type File struct {
	Name      string // the file's path, relative to the configuration's folder
	Source    []byte
	HCL       *hcl.File
	Variables map[string]*hcl.Attribute
	Providers []*Provider
	Mocks     []*MockProvider
	Overrides []*Override
	Runs      []*Run
}

// Run is a run block.
type Run struct {
	Name           string
	Command        string // "apply" or "plan"
	Variables      map[string]*hcl.Attribute
	Asserts        []*Assert
	ExpectFailures []hcl.Traversal
	Module         *Module
	Providers      hcl.Expression // the providers mapping; nil: every provider of the file
	Plan           PlanOptions
	Overrides      []*Override // the run's, which beat the file's
	DeclRange      hcl.Range
}

// Module is a run's module block: the run applies that module, in a
// stack of its own, instead of the configuration under test.
type Module struct {
	Source string
	Range  hcl.Range
}

// Assert is an assert block.
type Assert struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	Range        hcl.Range
}

// PlanOptions are a run's plan_options.
type PlanOptions struct {
	Mode    string // "normal" or "refresh-only"
	Refresh bool
	Replace []hcl.Traversal
	Target  []hcl.Traversal
}

// Provider is a provider block of a test file.
type Provider struct {
	Name, Alias string
	Block       *hcl.Block
}

// Key is how runs and configurations name the provider: NAME or NAME.ALIAS.
func (p *Provider) Key() string {
	if p.Alias == "" {
		return p.Name
	}
	return p.Name + "." + p.Alias
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "run", LabelNames: []string{"name"}},
	{Type: "variables"},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "mock_provider", LabelNames: []string{"name"}},
	{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
}}

var runSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "variables"}, {Type: "assert"}, {Type: "module"}, {Type: "plan_options"},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"}},
}

var assertSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true}, {Name: "error_message", Required: true}}}

var moduleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source", Required: true}, {Name: "version"}}}

var planOptionsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"}}}

// IsTestFile reports whether name is a test file's: *.tftest.hcl or
// *.tofutest.hcl.
func IsTestFile(name string) bool {
	return strings.HasSuffix(name, ".tftest.hcl") || strings.HasSuffix(name, ".tofutest.hcl")
}

// Parse reads a test file. Blocks and arguments `tofu test` does not
// know are errors at their position.
func Parse(name string, src []byte) (*File, hcl.Diagnostics) {
	f := &File{Name: filepath.ToSlash(name), Source: src, Variables: map[string]*hcl.Attribute{}}
	hf, diags := hclsyntax.ParseConfig(src, f.Name, hcl.InitialPos)
	if diags.HasErrors() {
		return f, diags
	}
	f.HCL = hf
	content, d := hf.Body.Content(fileSchema)
	diags = append(diags, d...)
	seen := map[string]*Run{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "variables":
			diags = append(diags, readVariables(b, f.Variables)...)
		case "provider":
			p := &Provider{Name: b.Labels[0], Block: b}
			attrs, _ := b.Body.JustAttributes()
			if a := attrs["alias"]; a != nil {
				v, d := a.Expr.Value(nil)
				diags = append(diags, d...)
				if !d.HasErrors() && v.Type().FriendlyName() == "string" && v.IsKnown() && !v.IsNull() {
					p.Alias = v.AsString()
				}
			}
			f.Providers = append(f.Providers, p)
		case "mock_provider":
			m, d := readMockProvider(b)
			diags = append(diags, d...)
			f.Mocks = append(f.Mocks, m)
		case "override_resource", "override_data", "override_module":
			o, d := readOverride(b)
			diags = append(diags, d...)
			f.Overrides = append(f.Overrides, o)
		case "run":
			r, d := readRun(b, f)
			diags = append(diags, d...)
			if prev := seen[r.Name]; prev != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate run block",
					Detail: fmt.Sprintf("A run named %q is declared at %s already; give each run a name of its own.", r.Name, prev.DeclRange), Subject: b.DefRange.Ptr()})
				continue
			}
			seen[r.Name] = r
			f.Runs = append(f.Runs, r)
		}
	}
	return f, diags
}

func readVariables(b *hcl.Block, into map[string]*hcl.Attribute) hcl.Diagnostics {
	attrs, diags := b.Body.JustAttributes()
	for name, a := range attrs {
		into[name] = a
	}
	return diags
}

func readRun(b *hcl.Block, f *File) (*Run, hcl.Diagnostics) {
	r := &Run{Name: b.Labels[0], Command: "apply", Variables: map[string]*hcl.Attribute{}, Plan: PlanOptions{Mode: "normal", Refresh: true}, DeclRange: b.DefRange}
	content, diags := b.Body.Content(runSchema)
	if a := content.Attributes["command"]; a != nil {
		switch kw := hcl.ExprAsKeyword(a.Expr); kw {
		case "apply", "plan":
			r.Command = kw
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid command",
				Detail: "command is the keyword apply or plan (not quoted).", Subject: a.Expr.Range().Ptr()})
		}
	}
	if a := content.Attributes["providers"]; a != nil {
		r.Providers = a.Expr
	}
	if a := content.Attributes["expect_failures"]; a != nil {
		trs, d := traversalList(a.Expr)
		diags = append(diags, d...)
		r.ExpectFailures = trs
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "variables":
			diags = append(diags, readVariables(blk, r.Variables)...)
		case "assert":
			c, d := blk.Body.Content(assertSchema)
			diags = append(diags, d...)
			if !d.HasErrors() {
				r.Asserts = append(r.Asserts, &Assert{Condition: c.Attributes["condition"].Expr, ErrorMessage: c.Attributes["error_message"].Expr, Range: blk.DefRange})
			}
		case "module":
			c, d := blk.Body.Content(moduleSchema)
			diags = append(diags, d...)
			if a := c.Attributes["source"]; a != nil {
				v, d := a.Expr.Value(nil)
				diags = append(diags, d...)
				if !d.HasErrors() {
					if v.Type().FriendlyName() != "string" || v.IsNull() || !strings.HasPrefix(v.AsString(), ".") {
						diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported module source",
							Detail: "A run's module is a local folder, \"./NAME\" or \"../NAME\", relative to the configuration under test.", Subject: a.Expr.Range().Ptr()})
					} else {
						r.Module = &Module{Source: v.AsString(), Range: a.Expr.Range()}
					}
				}
			}
		case "plan_options":
			diags = append(diags, readPlanOptions(blk, &r.Plan)...)
		default:
			o, d := readOverride(blk)
			diags = append(diags, d...)
			r.Overrides = append(r.Overrides, o)
		}
	}
	return r, diags
}

func readPlanOptions(b *hcl.Block, p *PlanOptions) hcl.Diagnostics {
	c, diags := b.Body.Content(planOptionsSchema)
	if a := c.Attributes["mode"]; a != nil {
		switch kw := hcl.ExprAsKeyword(a.Expr); kw {
		case "normal", "refresh-only":
			p.Mode = kw
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid plan mode",
				Detail: "mode is the keyword normal or refresh-only.", Subject: a.Expr.Range().Ptr()})
		}
	}
	if a := c.Attributes["refresh"]; a != nil {
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		if !d.HasErrors() && v.Type().FriendlyName() == "bool" && !v.IsNull() {
			p.Refresh = v.True()
		}
	}
	for name, into := range map[string]*[]hcl.Traversal{"replace": &p.Replace, "target": &p.Target} {
		if a := c.Attributes[name]; a != nil {
			trs, d := traversalList(a.Expr)
			diags = append(diags, d...)
			*into = trs
		}
	}
	return diags
}

// traversalList reads a list of references: [var.a, output.b, aws_s3.x].
func traversalList(e hcl.Expression) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(e)
	var out []hcl.Traversal
	for _, x := range exprs {
		tr, d := hcl.AbsTraversalForExpr(x)
		diags = append(diags, d...)
		if !d.HasErrors() {
			out = append(out, tr)
		}
	}
	return out, diags
}

// Discover lists the test files of the configuration in dir: those in
// dir and in its test folder (testDir, relative to dir), in name order;
// of NAME.tftest.hcl and NAME.tofutest.hcl, the latter, as in OpenTofu.
func Discover(dir, testDir string) ([]string, error) {
	var out []string
	for _, sub := range []string{".", testDir} {
		matches, err := filepath.Glob(filepath.Join(dir, sub, "*.*test.hcl"))
		if err != nil {
			return nil, err
		}
		var names []string
		for _, m := range matches {
			// OpenTofu reads NAME.tofutest.hcl instead of NAME.tftest.hcl.
			if twin := strings.TrimSuffix(m, ".tftest.hcl") + ".tofutest.hcl"; twin != m && slices.Contains(matches, twin) {
				continue
			}
			if IsTestFile(m) {
				rel, _ := filepath.Rel(dir, m)
				names = append(names, filepath.ToSlash(rel))
			}
		}
		sort.Strings(names)
		out = append(out, names...)
	}
	return out, nil
}
