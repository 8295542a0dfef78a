package tfplugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// testBlock is a schema with a computed id, an optional+computed mode, a
// list block and a set block whose elements have a computed attribute.
var testBlock = &block{
	Attributes: []*attr{
		{Name: "id", Type: []byte(`"string"`), Computed: true},
		{Name: "name", Type: []byte(`"string"`), Required: true},
		{Name: "mode", Type: []byte(`"string"`), Optional: true, Computed: true},
	},
	BlockTypes: []*nested{
		{TypeName: "rule", Nesting: tfplugin6.Schema_NestedBlock_LIST, Block: &block{Attributes: []*attr{
			{Name: "port", Type: []byte(`"number"`), Required: true},
			{Name: "uid", Type: []byte(`"string"`), Computed: true},
		}}},
		{TypeName: "tag", Nesting: tfplugin6.Schema_NestedBlock_SET, Block: &block{Attributes: []*attr{
			{Name: "key", Type: []byte(`"string"`), Required: true},
			{Name: "uid", Type: []byte(`"string"`), Computed: true},
		}}},
		{TypeName: "group", Nesting: tfplugin6.Schema_NestedBlock_GROUP, Block: &block{Attributes: []*attr{
			{Name: "on", Type: []byte(`"bool"`), Optional: true},
		}}},
	},
}

func rule(port int64, uid cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "uid": uid})
}

func tag(key string, uid cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(key), "uid": uid})
}

// TestProposedNew keeps the prior values of computed attributes the
// configuration leaves null, at every level, and takes the configuration
// everywhere else.
func TestProposedNew(t *testing.T) {
	ty, err := blockType(testBlock)
	if err != nil {
		t.Fatal(err)
	}
	null := cty.NullVal(cty.String)
	group := cty.ObjectVal(map[string]cty.Value{"on": cty.NullVal(cty.Bool)})
	prior := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("i-1"), "name": cty.StringVal("a"), "mode": cty.StringVal("auto"),
		"rule":  cty.ListVal([]cty.Value{rule(80, cty.StringVal("r80")), rule(443, cty.StringVal("r443"))}),
		"tag":   cty.SetVal([]cty.Value{tag("x", cty.StringVal("tx")), tag("y", cty.StringVal("ty"))}),
		"group": group,
	})
	config := cty.ObjectVal(map[string]cty.Value{
		"id": null, "name": cty.StringVal("b"), "mode": null,
		"rule":  cty.ListVal([]cty.Value{rule(80, null), rule(8080, null), rule(9090, null)}),
		"tag":   cty.SetVal([]cty.Value{tag("y", null), tag("z", null)}),
		"group": group,
	})
	got := proposedNew(testBlock, prior, config)
	want := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("i-1"), "name": cty.StringVal("b"), "mode": cty.StringVal("auto"),
		"rule":  cty.ListVal([]cty.Value{rule(80, cty.StringVal("r80")), rule(8080, cty.StringVal("r443")), rule(9090, null)}),
		"tag":   cty.SetVal([]cty.Value{tag("y", cty.StringVal("ty")), tag("z", null)}),
		"group": group,
	})
	if !got.RawEquals(want) {
		t.Errorf("proposedNew =\n%#v\nwant\n%#v", got, want)
	}
	if !got.Type().Equals(ty) {
		t.Errorf("type %#v, want the implied %#v", got.Type(), ty)
	}
	if created := proposedNew(testBlock, cty.NullVal(ty), config); !created.GetAttr("id").IsNull() {
		t.Errorf("a create proposes id %#v", created.GetAttr("id"))
	}
}

// TestFillBlocks fills in absent blocks as Terraform decodes them.
func TestFillBlocks(t *testing.T) {
	ty, _ := blockType(testBlock)
	v := cty.ObjectVal(map[string]cty.Value{"id": cty.NullVal(cty.String), "name": cty.StringVal("a"), "mode": cty.NullVal(cty.String),
		"rule": cty.NullVal(ty.AttributeType("rule")), "tag": cty.NullVal(ty.AttributeType("tag")), "group": cty.NullVal(ty.AttributeType("group"))})
	got := fillBlocks(testBlock, ty, v)
	if r := got.GetAttr("rule"); r.IsNull() || r.LengthInt() != 0 {
		t.Errorf("rule = %#v, want an empty list", r)
	}
	if s := got.GetAttr("tag"); s.IsNull() || s.LengthInt() != 0 {
		t.Errorf("tag = %#v, want an empty set", s)
	}
	if g := got.GetAttr("group"); g.IsNull() || !g.GetAttr("on").IsNull() {
		t.Errorf("group = %#v, want a block of nulls", g)
	}
}
