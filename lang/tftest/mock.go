package tftest

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// MockProvider is a mock_provider block: the provider's resources and
// data sources get the values of their defaults, by type.
type MockProvider struct {
	Name      string
	Alias     hcl.Expression // refused: a mock stands for every configuration of the provider
	Resources map[string]hcl.Expression
	Data      map[string]hcl.Expression
	Nested    []*hcl.Block // override_* blocks in it, refused
	Range     hcl.Range
}

// Override is an override_resource, override_data or override_module
// block.
type Override struct {
	Type   string
	Target hcl.Traversal
	Values hcl.Expression // nil: none
	Range  hcl.Range
}

var mockProviderSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "mock_resource", LabelNames: []string{"type"}}, {Type: "mock_data", LabelNames: []string{"type"}},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"}},
}

var mockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}}}

var overrideSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target", Required: true}, {Name: "values"}, {Name: "outputs"}}}

func readMockProvider(b *hcl.Block) (*MockProvider, hcl.Diagnostics) {
	m := &MockProvider{Name: b.Labels[0], Resources: map[string]hcl.Expression{}, Data: map[string]hcl.Expression{}, Range: b.DefRange}
	c, diags := b.Body.Content(mockProviderSchema)
	if a := c.Attributes["alias"]; a != nil {
		m.Alias = a.Expr
	}
	for _, blk := range c.Blocks {
		into := m.Resources
		switch blk.Type {
		case "mock_data":
			into = m.Data
		case "mock_resource":
		default:
			m.Nested = append(m.Nested, blk)
			continue
		}
		mc, d := blk.Body.Content(mockSchema)
		diags = append(diags, d...)
		if a := mc.Attributes["defaults"]; a != nil {
			into[blk.Labels[0]] = a.Expr
		} else {
			into[blk.Labels[0]] = nil
		}
	}
	return m, diags
}

func readOverride(b *hcl.Block) (*Override, hcl.Diagnostics) {
	o := &Override{Type: b.Type, Range: b.DefRange}
	c, diags := b.Body.Content(overrideSchema)
	if a := c.Attributes["target"]; a != nil {
		tr, d := hcl.AbsTraversalForExpr(a.Expr)
		diags = append(diags, d...)
		o.Target = tr
	}
	// override_module gives outputs, the others values.
	for _, name := range []string{"values", "outputs"} {
		if a := c.Attributes[name]; a != nil {
			o.Values = a.Expr
		}
	}
	return o, diags
}

// mocksFile is where a stack's mocks are, beside its work copy (see
// workspace.cairn).
func mocksFile(stackDir string) string { return filepath.Join(filepath.Dir(stackDir), "mocks.json") }

// writeMocks writes the mocks of a run of configuration c (the file's
// mock providers, its overrides and then the run's) for the stack in
// dir, or removes them when there are none.
func writeMocks(dir string, f *File, run *Run, c *Config, ctx *hcl.EvalContext) hcl.Diagnostics {
	m := tfplugin.Mocks{Providers: map[string]*tfplugin.MockProvider{}, Resources: map[string]map[string]json.RawMessage{}}
	var diags hcl.Diagnostics
	for _, mp := range f.Mocks {
		p := &tfplugin.MockProvider{Resources: map[string]map[string]json.RawMessage{}, Data: map[string]map[string]json.RawMessage{}}
		for kind, set := range map[string]map[string]hcl.Expression{"resource": mp.Resources, "data": mp.Data} {
			into := p.Resources
			if kind == "data" {
				into = p.Data
			}
			for typ, e := range set {
				v, d := attributesJSON(e, ctx)
				diags = append(diags, d...)
				into[typ] = v
			}
		}
		m.Providers[c.providerType(mp.Name)] = p
	}
	for _, o := range append(append([]*Override{}, f.Overrides...), run.Overrides...) {
		v, d := attributesJSON(o.Values, ctx)
		diags = append(diags, d...)
		m.Resources[Address(o.Target)] = v
	}
	if diags.HasErrors() {
		return diags
	}
	text := ""
	if len(m.Providers) > 0 || len(m.Resources) > 0 {
		data, err := json.Marshal(m)
		if err != nil {
			return hcl.Diagnostics{runError(run, "Cannot write the run's mocks", err.Error())}
		}
		text = string(data)
	}
	if err := writeOrRemove(mocksFile(dir), text); err != nil {
		return hcl.Diagnostics{runError(run, "Cannot write the run's mocks", err.Error())}
	}
	return nil
}

// attributesJSON evaluates an object of attribute values (a mock's
// defaults, an override's values) into their JSON forms.
func attributesJSON(e hcl.Expression, ctx *hcl.EvalContext) (map[string]json.RawMessage, hcl.Diagnostics) {
	out := map[string]json.RawMessage{}
	if e == nil {
		return out, nil
	}
	v, diags := e.Value(ctx)
	if diags.HasErrors() {
		return nil, diags
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return out, nil
	}
	if !v.IsWhollyKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid mock values",
			Detail: "Mock defaults and override values are an object of known values, by attribute name: { id = \"x\", size = 3 }.", Subject: e.Range().Ptr()}}
	}
	for it := v.ElementIterator(); it.Next(); {
		k, a := it.Element()
		data, err := ctyjson.Marshal(a, a.Type())
		if err != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid mock values", Detail: err.Error(), Subject: e.Range().Ptr()}}
		}
		out[k.AsString()] = data
	}
	return out, nil
}

// hasMocks reports whether the stack in dir runs with mocks.
func hasMocks(dir string) bool {
	_, err := os.Stat(mocksFile(dir))
	return err == nil
}
