package tfplugin

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
)

// TestValuesRoundTrip converts properties to the implied type and back:
// numbers from strings, unknowns, secrets (by path, a set's at the set),
// nested blocks, sensitive attributes, dynamic values through msgpack.
func TestValuesRoundTrip(t *testing.T) {
	b := &block{
		Attributes: []*attr{
			{Name: "count", Type: []byte(`"number"`), Optional: true},
			{Name: "password", Type: []byte(`"string"`), Optional: true, Sensitive: true},
			{Name: "labels", Type: []byte(`["set","string"]`), Optional: true},
			{Name: "any", Type: []byte(`"dynamic"`), Optional: true},
			{Name: "later", Type: []byte(`"string"`), Computed: true},
		},
		BlockTypes: testBlock.BlockTypes,
	}
	ty, err := blockType(b)
	if err != nil {
		t.Fatal(err)
	}
	in := resource.Map{
		"count":    resource.String("3"),
		"password": resource.String("hunter2"),
		"labels":   resource.Array(resource.String("a"), resource.MakeSecret(resource.String("b"))),
		"any":      resource.Object(resource.Map{"n": resource.Number(1), "l": resource.Array(resource.Bool(true))}),
		"later":    resource.Unknown(),
		"rule":     resource.Array(resource.Object(resource.Map{"port": resource.Number(80), "uid": resource.MakeSecret(resource.String("s"))})),
	}
	var secrets []resource.Path
	v, err := toCty(resource.Object(in), ty, nil, &secrets)
	if err != nil {
		t.Fatal(err)
	}
	v = fillBlocks(b, ty, v)
	if got := v.GetAttr("count"); !got.RawEquals(cty.NumberIntVal(3)) {
		t.Errorf("count = %#v", got)
	}
	dv, err := encode(v, ty)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode(dv, ty)
	if err != nil {
		t.Fatal(err)
	}
	out := stateToEngine(b, back)
	markPaths(out, secrets)
	if !out["password"].IsSecret() || !out["labels"].IsSecret() || !out["later"].IsUnknown() {
		t.Errorf("secrets and unknowns lost: %v", out)
	}
	uid := out["rule"].ArrayValue()[0].ObjectValue()["uid"]
	if !uid.IsSecret() || out["count"].NumberValue() != 3 || out["any"].ObjectValue()["n"].NumberValue() != 1 {
		t.Errorf("out = %v", out)
	}
	if _, ok := out["group"]; !ok {
		t.Errorf("the group block is missing: %v", out)
	}
	if _, ok := out["tag"]; !ok {
		t.Errorf("the empty tag set is missing: %v", out)
	}
}

// TestValuesErrors name the property at fault.
func TestValuesErrors(t *testing.T) {
	ty, _ := blockType(testBlock)
	for _, tc := range []struct {
		in   resource.Map
		want string
	}{
		{resource.Map{"colour": resource.String("red")}, "colour: there is no such attribute"},
		{resource.Map{"rule": resource.String("x")}, "rule: a list is required, not a string"},
		{resource.Map{"rule": resource.Array(resource.Object(resource.Map{"port": resource.String("eighty")}))}, "rule[0].port: a number is required"},
	} {
		var secrets []resource.Path
		_, err := toCty(resource.Object(tc.in), ty, nil, &secrets)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("toCty(%v) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestTokens names types as Pulumi's bridge does.
func TestTokens(t *testing.T) {
	for _, tc := range [][2]string{
		{resourceToken("null", "null_resource"), "null:index/resource:Resource"},
		{resourceToken("aws", "aws_s3_bucket"), "aws:index/s3Bucket:S3Bucket"},
		{dataToken("null", "null_data_source"), "null:index/getDataSource:getDataSource"},
		{functionToken("null", "noop"), "null:functions:noop"},
	} {
		if tc[0] != tc[1] {
			t.Errorf("got %s, want %s", tc[0], tc[1])
		}
	}
}
