package tfstate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// Values. A state holds an instance's attributes as JSON of the types its
// provider's schema implies: a dynamic attribute as {"value", "type"},
// with the type in cty's JSON form. Cairn keeps them as the Terraform
// provider's state is kept in Cairn (see the tfplugin package): null
// attributes of objects left out, dynamic values unwrapped, sensitive
// attributes secret, and what Terraform keeps beside them under MetaKey.

// Outputs returns the outputs an instance of a resource of type res (in
// package pkg) is recorded with in Cairn, and its ID (its id attribute, or
// NoID): its attributes, secret where the schema or the state says they
// are sensitive, and its schema version and private data under MetaKey.
// Attributes the schema does not know (a state written by an older version
// of the provider) are kept as they are: the provider upgrades them.
func (in *Instance) Outputs(pkg *schema.Package, res *schema.Resource) (resource.Map, resource.ID, error) {
	if in.Attributes == nil && in.AttributesFlat != nil {
		return nil, "", fmt.Errorf("its attributes are in the flat form of Terraform 0.11; run `terraform apply -refresh-only` with Terraform 0.12 or later to rewrite them")
	}
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(in.Attributes, &attrs); err != nil {
		return nil, "", fmt.Errorf("its attributes are not a JSON object: %w", err)
	}
	c := converter{pkg: pkg}
	out, err := c.object(attrs, res.Properties)
	if err != nil {
		return nil, "", err
	}
	root := resource.Object(out)
	for i, raw := range in.SensitiveAttributes {
		p, err := sensitivePath(raw)
		if err != nil {
			return nil, "", fmt.Errorf("sensitive attribute path %d: %w", i, err)
		}
		if v, ok := p.Get(root); ok && !v.IsNull() && !v.IsSecret() {
			if root, err = p.Set(root, resource.MakeSecret(v)); err != nil {
				return nil, "", fmt.Errorf("sensitive attribute %s: %w", p, err)
			}
		}
	}
	out = root.ObjectValue()
	out[MetaKey] = Meta{SchemaVersion: strconv.FormatUint(in.SchemaVersion, 10), Private: in.Private}.Value()
	id := resource.ID(NoID)
	if v := out["id"].Unsecret(); v.IsString() && v.StringValue() != "" {
		id = resource.ID(v.StringValue())
	}
	return out, id, nil
}

// EngineValue returns a root output's value, secret if it is sensitive.
func (o Output) EngineValue() (resource.Value, error) {
	v, err := typed(o.Value, o.Type)
	if err != nil {
		return resource.Value{}, err
	}
	if o.Sensitive {
		v = resource.MakeSecret(v)
	}
	return v, nil
}

// converter converts values by the types of a package schema.
type converter struct{ pkg *schema.Package }

// object converts the attributes of an object whose properties are props;
// null ones are left out.
func (c converter) object(attrs map[string]json.RawMessage, props map[string]*schema.Property) (resource.Map, error) {
	out := resource.Map{}
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		var v resource.Value
		var err error
		if p := props[k]; p != nil {
			v, err = c.value(attrs[k], p.TypeSpec)
			if p.Secret && !v.IsNull() {
				v = resource.MakeSecret(v)
			}
		} else {
			v, err = plain(attrs[k])
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		if !v.IsNull() {
			out[k] = v
		}
	}
	return out, nil
}

// value converts a value of a type spec.
func (c converter) value(raw json.RawMessage, t schema.TypeSpec) (resource.Value, error) {
	if isNull(raw) {
		return resource.Null, nil
	}
	switch {
	case t.Ref == "pulumi.json#/Any":
		var dyn struct {
			Value json.RawMessage `json:"value"`
			Type  json.RawMessage `json:"type"`
		}
		if err := json.Unmarshal(raw, &dyn); err == nil && dyn.Type != nil {
			return typed(dyn.Value, dyn.Type)
		}
		return plain(raw)
	case strings.HasPrefix(t.Ref, "#/types/"):
		obj := c.pkg.Types[strings.TrimPrefix(t.Ref, "#/types/")]
		var attrs map[string]json.RawMessage
		if obj == nil || json.Unmarshal(raw, &attrs) != nil {
			return plain(raw)
		}
		m, err := c.object(attrs, obj.Properties)
		return resource.Object(m), err
	case t.Type == "array" && t.Items != nil:
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return plain(raw)
		}
		out := make([]resource.Value, len(elems))
		for i, e := range elems {
			v, err := c.value(e, *t.Items)
			if err != nil {
				return resource.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = v
		}
		return resource.Array(out...), nil
	case t.Type == "object" && t.AdditionalProperties != nil:
		var elems map[string]json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return plain(raw)
		}
		out := resource.Map{}
		for k, e := range elems {
			v, err := c.value(e, *t.AdditionalProperties)
			if err != nil {
				return resource.Value{}, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = v
		}
		return resource.Object(out), nil
	}
	return plain(raw)
}

// typed converts a value of a type in cty's JSON form: "string",
// ["list", T], ["object", {…}], …; objects lose their null attributes,
// maps keep their null elements.
func typed(raw, ty json.RawMessage) (resource.Value, error) {
	if isNull(raw) {
		return resource.Null, nil
	}
	var kind []json.RawMessage
	if json.Unmarshal(ty, &kind) != nil || len(kind) < 2 {
		return plain(raw) // a primitive type, or "dynamic"
	}
	var name string
	if err := json.Unmarshal(kind[0], &name); err != nil {
		return resource.Value{}, fmt.Errorf("bad type %s", ty)
	}
	switch name {
	case "list", "set", "tuple":
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return resource.Value{}, fmt.Errorf("a %s is not a JSON array", name)
		}
		var tupleTypes []json.RawMessage
		if name == "tuple" {
			if err := json.Unmarshal(kind[1], &tupleTypes); err != nil || len(tupleTypes) != len(elems) {
				return resource.Value{}, fmt.Errorf("bad tuple type %s", ty)
			}
		}
		out := make([]resource.Value, len(elems))
		for i, e := range elems {
			et := kind[1]
			if tupleTypes != nil {
				et = tupleTypes[i]
			}
			v, err := typed(e, et)
			if err != nil {
				return resource.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = v
		}
		return resource.Array(out...), nil
	case "map", "object":
		var elems map[string]json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return resource.Value{}, fmt.Errorf("a %s is not a JSON object", name)
		}
		var attrTypes map[string]json.RawMessage
		if name == "object" {
			if err := json.Unmarshal(kind[1], &attrTypes); err != nil {
				return resource.Value{}, fmt.Errorf("bad object type %s", ty)
			}
		}
		out := resource.Map{}
		for k, e := range elems {
			et := kind[1]
			if attrTypes != nil {
				et = attrTypes[k]
			}
			v, err := typed(e, et)
			if err != nil {
				return resource.Value{}, fmt.Errorf("%s: %w", k, err)
			}
			if name == "map" || !v.IsNull() {
				out[k] = v
			}
		}
		return resource.Object(out), nil
	}
	return resource.Value{}, fmt.Errorf("unknown type %s", ty)
}

// plain converts JSON whose type no schema gives: objects lose their null
// attributes.
func plain(raw json.RawMessage) (resource.Value, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&v); err != nil {
		return resource.Value{}, err
	}
	return fromJSON(v), nil
}

func fromJSON(v any) resource.Value {
	switch x := v.(type) {
	case string:
		return resource.String(x)
	case float64:
		return resource.Number(x)
	case bool:
		return resource.Bool(x)
	case []any:
		out := make([]resource.Value, len(x))
		for i, e := range x {
			out[i] = fromJSON(e)
		}
		return resource.Array(out...)
	case map[string]any:
		out := resource.Map{}
		for k, e := range x {
			if e != nil {
				out[k] = fromJSON(e)
			}
		}
		return resource.Object(out)
	}
	return resource.Null
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// sensitivePath reads a path of sensitive_attributes: steps
// {"type": "get_attr", "value": "name"} and
// {"type": "index", "value": {"value": 0, "type": "number"}}.
func sensitivePath(raw json.RawMessage) (resource.Path, error) {
	var steps []struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &steps); err != nil {
		return nil, err
	}
	var p resource.Path
	for _, s := range steps {
		switch s.Type {
		case "get_attr":
			var name string
			if err := json.Unmarshal(s.Value, &name); err != nil {
				return nil, fmt.Errorf("bad attribute step %s", s.Value)
			}
			p = append(p, name)
		case "index":
			var key struct {
				Value any `json:"value"`
			}
			if err := json.Unmarshal(s.Value, &key); err != nil {
				return nil, fmt.Errorf("bad index step %s", s.Value)
			}
			switch k := key.Value.(type) {
			case string:
				p = append(p, k)
			case float64:
				p = append(p, int(k))
			default:
				return nil, fmt.Errorf("bad index step %s", s.Value)
			}
		default:
			return nil, fmt.Errorf("unknown step type %q", s.Type)
		}
	}
	return p, nil
}
