package tftest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// MockProvider is a mock_provider block: the provider's resources and
// data sources get the values of their defaults, by type.
type MockProvider struct {
	Name, Alias string // an alias mocks that configuration only
	Resources   map[string]hcl.Expression
	Data        map[string]hcl.Expression
	Overrides   []*Override // override blocks in it
	Range       hcl.Range
}

// Override is an override_resource, override_data or override_module
// block.
type Override struct {
	Type   string
	Target hcl.Traversal
	Values hcl.Expression // values, or an override_module's outputs; nil: none
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
		v, d := a.Expr.Value(nil)
		if d.HasErrors() || v.Type() != cty.String || v.IsNull() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider alias",
				Detail: "The alias of a mock_provider is a constant string, such as \"east\".", Subject: a.Expr.Range().Ptr()})
		} else {
			m.Alias = v.AsString()
		}
	}
	for _, blk := range c.Blocks {
		into := m.Resources
		switch blk.Type {
		case "mock_data":
			into = m.Data
		case "mock_resource":
		default:
			o, d := readOverride(blk)
			diags = append(diags, d...)
			m.Overrides = append(m.Overrides, o)
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

// targetAddress is the address an override's target names:
// TYPE.NAME, data.TYPE.NAME, module.NAME, module.NAME.TYPE.NAME.
func targetAddress(tr hcl.Traversal) string {
	parts := []string{tr.RootName()}
	for _, step := range tr[1:] {
		if a, ok := step.(hcl.TraverseAttr); ok {
			parts = append(parts, a.Name)
		}
	}
	return strings.Join(parts, ".")
}

// overrides are the overrides of a run of configuration c, by target
// address: those in the file's mock_provider blocks (of the objects of
// that provider configuration), the file's, then the run's, each beating
// the ones before, as in OpenTofu.
func overrides(f *File, run *Run, c *Config) (map[string]*Override, []string) {
	var all []*Override
	for _, mp := range f.Mocks {
		key := mp.Name
		if mp.Alias != "" {
			key += "." + mp.Alias
		}
		for _, o := range mp.Overrides {
			if o.Target == nil {
				continue
			}
			if p := c.configurationOf(targetAddress(o.Target)); p == "" || p == key {
				all = append(all, o)
			}
		}
	}
	all = append(append(all, f.Overrides...), run.Overrides...)
	out := map[string]*Override{}
	for _, o := range all {
		if o.Target != nil {
			out[targetAddress(o.Target)] = o
		}
	}
	addrs := make([]string, 0, len(out))
	for a := range out {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	return out, addrs
}

// mocksFile is where a stack's mocks are, beside its work copy (see
// workspace.cairn).
func mocksFile(stackDir string) string { return filepath.Join(filepath.Dir(stackDir), "mocks.json") }

// The files and folders of a work copy that carry a run's overrides of
// data sources and module calls (see writeMocks).
const (
	mocksConfig   = "zz_cairn_tftest_mocks"
	mocksOverride = "zz_cairn_tftest_mocks_override"
	moduleFolder  = "zz_cairn_tftest_module_"
)

// writeMocks writes the mocks of a run of configuration c (the file's
// mock providers and overrides, then the run's) for the stack in dir,
// or removes them when there are none. A mock answers for the providers
// and overridden resources (see tfplugin.Mocks). An overridden data
// source gets a provider configuration of its own, which a mock answers
// for. An overridden module call's source becomes a folder of the work
// copy that declares the call's arguments, and its outputs with the
// values given (null for the others), so none of its resources is
// planned: the work copy's files are rewritten (with hclwrite, from the
// configuration's) to call it. The source of a call cannot be set by an
// override file, which would leave a registry module's version beside
// a local source.
func writeMocks(dir string, f *File, run *Run, c *Config, ctx *hcl.EvalContext) hcl.Diagnostics {
	m := tfplugin.Mocks{Providers: map[string]*tfplugin.MockProvider{}, Configurations: map[string]*tfplugin.MockProvider{},
		Resources: map[string]map[string]json.RawMessage{}}
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
		if mp.Alias != "" {
			m.Configurations[c.providerType(mp.Name)+"."+mp.Alias] = p
		} else {
			m.Providers[c.providerType(mp.Name)] = p
		}
	}
	var plain, over strings.Builder
	modules := map[string]string{}
	byAddr, addrs := overrides(f, run, c)
	for _, addr := range addrs {
		o := byAddr[addr]
		switch o.Type {
		case "override_resource":
			v, d := attributesJSON(o.Values, ctx)
			diags = append(diags, d...)
			m.Resources[addr] = v
		case "override_data":
			v, d := attributesJSON(o.Values, ctx)
			diags = append(diags, d...)
			typ, name := o.Target[1].(hcl.TraverseAttr).Name, o.Target[2].(hcl.TraverseAttr).Name
			key := c.Objects[addr].Provider
			local := strings.SplitN(key, ".", 2)[0]
			alias := "cairn_tftest_data_" + typ + "_" + name
			m.Configurations[c.providerType(local)+"."+alias] = &tfplugin.MockProvider{Data: map[string]map[string]json.RawMessage{typ: v}}
			fmt.Fprintf(&plain, "provider %q {\n  alias = %q\n", local, alias)
			if b := c.Blocks[key]; b != nil {
				plain.WriteString(providerBody(c.Files[b.Range().Filename].Bytes, b.Body))
			}
			plain.WriteString("}\n")
			fmt.Fprintf(&over, "data %q %q {\n  provider = %s.%s\n}\n", typ, name, local, alias)
		case "override_module":
			text, d := moduleStub(c, c.Objects[addr], o, ctx)
			diags = append(diags, d...)
			modules[strings.TrimPrefix(addr, "module.")] = text
		}
	}
	if diags.HasErrors() {
		return diags
	}
	text := ""
	if len(m.Providers) > 0 || len(m.Configurations) > 0 || len(m.Resources) > 0 {
		data, err := json.Marshal(m)
		if err != nil {
			return hcl.Diagnostics{runError(run, "Cannot write the run's mocks", err.Error())}
		}
		text = string(data)
	}
	if err := writeMockFiles(dir, c, text, plain.String(), over.String(), modules); err != nil {
		return hcl.Diagnostics{runError(run, "Cannot write the run's mocks", err.Error())}
	}
	return nil
}

// writeMockFiles writes the mocks file and the files and folders of the
// work copy in dir of configuration c that carry overrides, removing
// those of a run before; modules are the stubs of module calls, by name.
func writeMockFiles(dir string, c *Config, mocks, plain, over string, modules map[string]string) error {
	ext := c.Ext
	if err := writeOrRemove(mocksFile(dir), mocks); err != nil {
		return err
	}
	for name, text := range map[string]string{mocksConfig: plain, mocksOverride: over} {
		if err := writeOrRemove(filepath.Join(dir, name+ext), text); err != nil {
			return err
		}
	}
	old, err := filepath.Glob(filepath.Join(dir, moduleFolder+"*"))
	if err != nil {
		return err
	}
	for _, o := range old {
		if err := os.RemoveAll(o); err != nil {
			return err
		}
	}
	for name, text := range modules {
		if err := os.MkdirAll(filepath.Join(dir, moduleFolder+name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, moduleFolder+name, "main"+ext), []byte(text), 0o600); err != nil {
			return err
		}
	}
	return rewriteCalls(dir, c, modules)
}

// rewriteCalls writes the files of the work copy in dir that call modules
// afresh from the configuration c's, with the source of each call in
// stubs its stub's folder, and without its version.
func rewriteCalls(dir string, c *Config, stubs map[string]string) error {
	calls := map[string]bool{}
	for addr, o := range c.Objects {
		if strings.HasPrefix(addr, "module.") {
			calls[o.Range.Filename] = true
		}
	}
	for name := range calls {
		f, diags := hclwrite.ParseConfig(c.Files[name].Bytes, name, hcl.InitialPos)
		if diags.HasErrors() {
			return diags
		}
		for _, b := range f.Body().Blocks() {
			labels := b.Labels()
			if len(labels) != 1 || b.Type() != "module" {
				continue
			}
			if _, ok := stubs[labels[0]]; ok {
				b.Body().SetAttributeValue("source", cty.StringVal("./"+moduleFolder+labels[0]))
				b.Body().RemoveAttribute("version")
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), f.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// moduleStub is the configuration that stands for an overridden module
// call: a variable (of any type, null by default) for each argument the
// call passes, and an output for each output the module declares (when
// its source is a folder of the configuration) or the override gives;
// those it does not give are null, as in OpenTofu.
func moduleStub(c *Config, call *Object, o *Override, ctx *hcl.EvalContext) (string, hcl.Diagnostics) {
	given := map[string]cty.Value{}
	if o.Values != nil {
		v, diags := o.Values.Value(ctx)
		if diags.HasErrors() {
			return "", diags
		}
		v, _ = v.UnmarkDeep()
		if !v.IsNull() {
			if !v.IsWhollyKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
				return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid module outputs",
					Detail: "The outputs of an override_module are an object of known values, by output name: { id = \"x\", size = 3 }.", Subject: o.Values.Range().Ptr()}}
			}
			given = v.AsValueMap()
		}
	}
	outputs := map[string]bool{}
	for name := range given {
		outputs[name] = true
	}
	if isLocal(call.Source) {
		if mc, err := LoadConfig(filepath.Join(c.Dir, call.Source)); err == nil {
			for addr := range mc.Objects {
				if name, ok := strings.CutPrefix(addr, "output."); ok {
					outputs[name] = true
				}
			}
		}
	}
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, arg := range call.Args {
		v := body.AppendNewBlock("variable", []string{arg}).Body()
		v.SetAttributeTraversal("type", hcl.Traversal{hcl.TraverseRoot{Name: "any"}})
		v.SetAttributeValue("default", cty.NullVal(cty.DynamicPseudoType))
	}
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v, ok := given[name]
		if !ok {
			v = cty.NullVal(cty.DynamicPseudoType)
		}
		body.AppendNewBlock("output", []string{name}).Body().SetAttributeValue("value", v)
	}
	return string(f.Bytes()), nil
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
