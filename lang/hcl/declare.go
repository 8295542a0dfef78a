package hcl

import (
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// Declaration renders a resource as an HCL program declares it, for the
// user to add to the program after an import (as `pulumi import` prints
// it): a resource block with its Terraform-style type name, its inputs
// (plain Go values, JSON-like) as snake_case arguments and, if protect, a
// pulumi block that protects it.
func Declaration(name, typ string, inputs map[string]any, protect bool) (string, error) {
	f := hclwrite.NewEmptyFile()
	body := f.Body().AppendNewBlock("resource", []string{typeName(typ), name}).Body()
	keys := make([]string, 0, len(inputs))
	for k := range inputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := ctyOf(inputs[k])
		if err != nil {
			return "", fmt.Errorf("%s: %w", k, err)
		}
		body.SetAttributeValue(schema.SnakeCase(k), v)
	}
	if protect {
		body.AppendNewBlock("pulumi", nil).Body().SetAttributeValue("protect", cty.True)
	}
	return string(f.Bytes()), nil
}

// ctyOf converts a JSON-like Go value to cty.
func ctyOf(v any) (cty.Value, error) {
	switch x := v.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType), nil
	case string:
		return cty.StringVal(x), nil
	case bool:
		return cty.BoolVal(x), nil
	case float64:
		return cty.NumberFloatVal(x), nil
	case []any:
		vals := make([]cty.Value, len(x))
		for i, e := range x {
			c, err := ctyOf(e)
			if err != nil {
				return cty.NilVal, err
			}
			vals[i] = c
		}
		return cty.TupleVal(vals), nil
	case map[string]any:
		vals := make(map[string]cty.Value, len(x))
		for k, e := range x {
			c, err := ctyOf(e)
			if err != nil {
				return cty.NilVal, err
			}
			vals[k] = c
		}
		return cty.ObjectVal(vals), nil
	}
	return cty.NilVal, fmt.Errorf("a %T cannot be written in HCL", v)
}
