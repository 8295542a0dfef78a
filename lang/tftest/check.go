package tftest

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Check matches a test file against the configuration (and the module
// folders its runs name, by source): the runs it refers to must come
// before, the objects its assertions and expect_failures name must be
// declared, and its mocks must be of providers the configuration uses.
// Nothing runs of a file with errors.
func Check(f *File, configs map[string]*Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	before := map[string]bool{}
	for _, a := range f.Variables {
		diags = append(diags, checkRefs(a.Expr, nil, before, nil)...)
	}
	root := configs[""]
	for _, r := range f.Runs {
		c := root
		if r.Module != nil {
			c = configs[r.Module.Source]
		}
		testVars := map[string]bool{}
		for name := range f.Variables {
			testVars[name] = true
		}
		for name, a := range r.Variables {
			testVars[name] = true
			diags = append(diags, checkRefs(a.Expr, nil, before, nil)...)
		}
		for _, as := range r.Asserts {
			diags = append(diags, checkRefs(as.Condition, c, before, testVars)...)
			diags = append(diags, checkRefs(as.ErrorMessage, c, before, testVars)...)
		}
		for _, tr := range r.ExpectFailures {
			diags = append(diags, checkObject(tr, c, nil)...)
		}
		for _, tr := range append(append([]hcl.Traversal{}, r.Plan.Replace...), r.Plan.Target...) {
			diags = append(diags, checkObject(tr, c, nil)...)
		}
		if r.Providers != nil {
			diags = append(diags, checkProviders(r.Providers, f)...)
		}
		before[r.Name] = true
	}
	for _, m := range f.Mocks {
		diags = append(diags, checkMock(m, root)...)
	}
	for _, o := range f.Overrides {
		diags = append(diags, checkOverride(o, root)...)
	}
	for _, r := range f.Runs {
		c := root
		if r.Module != nil {
			c = configs[r.Module.Source]
		}
		for _, o := range r.Overrides {
			diags = append(diags, checkOverride(o, c)...)
		}
	}
	return diags
}

// checkRefs checks the references of a test file's expression: run.NAME
// of an earlier run; with c, also the objects of the configuration
// (testVars are the variables the test file gives, which need not be
// declared).
func checkRefs(e hcl.Expression, c *Config, before, testVars map[string]bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, tr := range e.Variables() {
		if tr.RootName() == "run" {
			if len(tr) < 2 {
				continue
			}
			name := ""
			if a, ok := tr[1].(hcl.TraverseAttr); ok {
				name = a.Name
			}
			if !before[name] {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unknown run block",
					Detail:  fmt.Sprintf("No run block named %q comes before this reference; a run may refer to the outputs of the runs above it.", name),
					Subject: tr.SourceRange().Ptr()})
			}
			continue
		}
		if c != nil {
			diags = append(diags, checkObject(tr, c, testVars)...)
		}
	}
	return diags
}

// checkObject checks that the object a reference names is declared.
func checkObject(tr hcl.Traversal, c *Config, testVars map[string]bool) hcl.Diagnostics {
	if c == nil {
		return nil
	}
	switch tr.RootName() {
	case "count", "each", "self", "path", "terraform", "run":
		return nil
	}
	addr := Address(tr)
	if addr == "" || c.Objects[addr] != nil || (tr.RootName() == "var" && testVars[addr[len("var."):]]) {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to an undeclared object",
		Detail:  fmt.Sprintf("The configuration under test (%s) does not declare %s.%s", c.Dir, addr, c.suggest(addr)),
		Subject: tr.SourceRange().Ptr()}}
}

// checkProviders checks a run's providers mapping: each value is a
// provider block of the test file.
func checkProviders(e hcl.Expression, f *File) hcl.Diagnostics {
	pairs, diags := hcl.ExprMap(e)
	for _, p := range pairs {
		tr, d := hcl.AbsTraversalForExpr(p.Value)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if providerOf(f, tr) == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to an undeclared provider",
				Detail:  "The test file declares no provider block of this name (and alias); declare it at the top level of the file.",
				Subject: p.Value.Range().Ptr()})
		}
	}
	return diags
}

// providerOf finds the test file's provider block a reference names:
// NAME or NAME.ALIAS.
func providerOf(f *File, tr hcl.Traversal) *Provider {
	key := tr.RootName()
	if len(tr) > 1 {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			key += "." + a.Name
		}
	}
	for _, p := range f.Providers {
		if p.Key() == key {
			return p
		}
	}
	return nil
}

// checkMock checks a mock_provider block: of a provider the
// configuration uses, and without what Cairn does not run yet.
func checkMock(m *MockProvider, c *Config) hcl.Diagnostics {
	if c != nil && !c.Providers[m.Name] {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Mock of an unused provider",
			Detail:  fmt.Sprintf("The configuration under test uses no provider named %q: no resource, data source or provider block belongs to it. Name a provider of the configuration, or remove the block.", m.Name),
			Subject: m.Range.Ptr()}}
	}
	var diags hcl.Diagnostics
	if m.Alias != nil {
		diags = append(diags, unsupported("an aliased mock_provider", "a mock stands for every configuration of its provider", m.Alias.Range()))
	}
	for _, b := range m.Nested {
		diags = append(diags, unsupported(b.Type+" in a mock_provider", "put it at the top of the file or in a run", b.DefRange))
	}
	return diags
}

// checkOverride checks an override block: override_resource of a
// resource of the root module the configuration declares; override_data
// and override_module Cairn does not run yet.
func checkOverride(o *Override, c *Config) hcl.Diagnostics {
	if o.Type != "override_resource" {
		return hcl.Diagnostics{unsupported(o.Type, "the test needs the real data source or module", o.Range)}
	}
	if o.Target == nil {
		return nil
	}
	switch o.Target.RootName() {
	case "module":
		return hcl.Diagnostics{unsupported("an override of a module's resource", "only the root module's resources are overridden", o.Target.SourceRange())}
	case "data", "var", "output", "local", "check", "run":
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid override target",
			Detail: "The target of an override_resource is a resource of the configuration under test: TYPE.NAME.", Subject: o.Target.SourceRange().Ptr()}}
	}
	return checkObject(o.Target, c, nil)
}

func unsupported(what, why string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not supported by cairn test",
		Detail:  fmt.Sprintf("Cairn does not run %s yet: %s. Remove it, or run this file with tofu test.", what, why),
		Subject: rng.Ptr()}
}
