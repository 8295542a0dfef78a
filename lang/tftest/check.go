package tftest

import (
	"fmt"
	"path/filepath"
	"strings"

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

// checkMock checks a mock_provider block: of a provider (and
// configuration, for an alias) the configuration uses, with overrides of
// objects it declares.
func checkMock(m *MockProvider, c *Config) hcl.Diagnostics {
	if c != nil && !c.Providers[m.Name] {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Mock of an unused provider",
			Detail:  fmt.Sprintf("The configuration under test uses no provider named %q: no resource, data source or provider block belongs to it. Name a provider of the configuration, or remove the block.", m.Name),
			Subject: m.Range.Ptr()}}
	}
	if c != nil && m.Alias != "" && !c.declaresProvider(m.Name+"."+m.Alias) {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Mock of an undeclared provider configuration",
			Detail:  fmt.Sprintf("The configuration under test has no provider block %q with alias %q: an aliased mock_provider mocks that configuration only. Declare it, or remove the alias.", m.Name, m.Alias),
			Subject: m.Range.Ptr()}}
	}
	var diags hcl.Diagnostics
	for _, o := range m.Overrides {
		diags = append(diags, checkOverride(o, c)...)
	}
	return diags
}

// checkOverride checks an override block's target: a resource
// (override_resource), a data source of the root module (override_data)
// or a module call of the root module (override_module) the
// configuration declares. A resource of a module is checked when the
// module's source is a folder of the configuration.
func checkOverride(o *Override, c *Config) hcl.Diagnostics {
	if o.Target == nil || c == nil {
		return nil
	}
	addr := targetAddress(o.Target)
	parts := strings.Split(addr, ".")
	invalid := func(want string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid override target",
			Detail: fmt.Sprintf("The target of an %s is %s of the configuration under test.", o.Type, want), Subject: o.Target.SourceRange().Ptr()}}
	}
	switch o.Type {
	case "override_module":
		if len(parts) != 2 || parts[0] != "module" {
			if len(parts) > 2 && parts[0] == "module" && parts[2] == "module" {
				return hcl.Diagnostics{unsupported("an override of a module call within a module", "override the call of the root module that holds it", o.Target.SourceRange())}
			}
			return invalid("a module call: module.NAME")
		}
		return checkObject(o.Target, c, nil)
	case "override_data":
		if parts[0] == "module" {
			return hcl.Diagnostics{unsupported("an override of a module's data source", "only the root module's data sources are overridden", o.Target.SourceRange())}
		}
		if len(parts) != 3 || parts[0] != "data" {
			return invalid("a data source: data.TYPE.NAME")
		}
		return checkObject(o.Target, c, nil)
	}
	if parts[0] == "module" {
		if len(parts) < 4 {
			return invalid("a resource: TYPE.NAME or module.NAME.TYPE.NAME")
		}
		if d := checkObject(o.Target[:2], c, nil); d.HasErrors() {
			return d
		}
		src := c.Objects["module."+parts[1]].Source
		if len(parts) > 4 || !isLocal(src) {
			return nil
		}
		mc, err := LoadConfig(filepath.Join(c.Dir, src))
		if err != nil {
			return nil
		}
		inner := append(hcl.Traversal{hcl.TraverseRoot{Name: parts[2], SrcRange: o.Target[2].SourceRange()}}, o.Target[3:]...)
		return checkObject(inner, mc, nil)
	}
	switch o.Target.RootName() {
	case "data", "var", "output", "local", "check", "run":
		return invalid("a resource: TYPE.NAME or module.NAME.TYPE.NAME")
	}
	return checkObject(o.Target, c, nil)
}

func unsupported(what, why string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not supported by cairn test",
		Detail:  fmt.Sprintf("Cairn does not run %s yet: %s. Remove it, or run this file with tofu test.", what, why),
		Subject: rng.Ptr()}
}
