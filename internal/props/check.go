package props

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// InternalPrefix begins the keys a provider keeps for itself in its inputs.
const InternalPrefix = "__"

// Check validates m against the declared properties of an object (a
// resource's inputs, a function's arguments): every key must be declared,
// every required property present and not null, and every known value of its
// declared type. Unknown values pass, secrets are checked by what they hold,
// and keys beginning with InternalPrefix are skipped. Each failure names the
// property path at fault.
func Check(pkg *schema.Package, properties map[string]*schema.Property, required []string, m resource.Map) []provider.CheckFailure {
	c := &checker{pkg: pkg}
	c.object(nil, properties, required, m)
	sort.Slice(c.failures, func(i, j int) bool { return c.failures[i].Property < c.failures[j].Property })
	return c.failures
}

type checker struct {
	pkg      *schema.Package
	failures []provider.CheckFailure
}

func (c *checker) fail(p resource.Path, format string, args ...any) {
	c.failures = append(c.failures, provider.CheckFailure{Property: p.String(), Reason: fmt.Sprintf(format, args...)})
}

func (c *checker) object(p resource.Path, properties map[string]*schema.Property, required []string, m resource.Map) {
	names := make([]string, 0, len(properties))
	for k := range properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range m.SortedKeys() {
		if strings.HasPrefix(k, InternalPrefix) {
			continue
		}
		kp := append(append(resource.Path(nil), p...), k)
		prop, ok := properties[k]
		if !ok {
			c.fail(kp, "unknown property %q%s; the properties here are %s", k, didYouMean(k, names), strings.Join(names, ", "))
			continue
		}
		c.value(kp, prop.TypeSpec, m[k])
	}
	for _, k := range required {
		if v, ok := m[k]; !ok || v.IsNull() {
			c.fail(append(append(resource.Path(nil), p...), k), "missing required property %q", k)
		}
	}
}

func (c *checker) value(p resource.Path, t schema.TypeSpec, v resource.Value) {
	if v.IsSecret() {
		v = v.SecretElement()
	}
	if v.IsNull() || v.IsUnknown() {
		return
	}
	switch {
	case len(t.OneOf) > 0:
		for _, alt := range t.OneOf {
			probe := &checker{pkg: c.pkg}
			if probe.value(p, alt, v); len(probe.failures) == 0 {
				return
			}
		}
		c.fail(p, "%s matches none of the types allowed here", v.Kind())
	case t.Ref != "":
		c.ref(p, t.Ref, v)
	case t.Type == "string":
		c.expect(p, v, resource.StringKind, "a string")
	case t.Type == "boolean":
		c.expect(p, v, resource.BoolKind, "a bool")
	case t.Type == "number":
		c.expect(p, v, resource.NumberKind, "a number")
	case t.Type == "integer":
		if c.expect(p, v, resource.NumberKind, "an integer") && v.NumberValue() != math.Trunc(v.NumberValue()) {
			c.fail(p, "must be an integer, not %s", resource.FormatNumber(v.NumberValue()))
		}
	case t.Type == "array":
		if !c.expect(p, v, resource.ArrayKind, "a list") || t.Items == nil {
			return
		}
		for i, e := range v.ArrayValue() {
			c.value(append(append(resource.Path(nil), p...), i), *t.Items, e)
		}
	case t.Type == "object":
		if !c.expect(p, v, resource.ObjectKind, "an object") || t.AdditionalProperties == nil {
			return
		}
		m := v.ObjectValue()
		for _, k := range m.SortedKeys() {
			c.value(append(append(resource.Path(nil), p...), k), *t.AdditionalProperties, m[k])
		}
	}
}

// expect checks that v is of kind k and reports whether it is.
func (c *checker) expect(p resource.Path, v resource.Value, k resource.Kind, what string) bool {
	if v.Kind() == k {
		return true
	}
	c.fail(p, "must be %s, not %s", what, describe(v))
	return false
}

// describe names the kind of v with its article: "a number", "an object".
func describe(v resource.Value) string {
	switch k := v.Kind(); k {
	case resource.ArrayKind:
		return "a list"
	case resource.ObjectKind, resource.AssetKind, resource.ArchiveKind, resource.OutputKind:
		return "an " + k.String()
	default:
		return "a " + k.String()
	}
}

// ref checks v against a type reference: the built-in Any, Json, Asset and
// Archive, or one of the package's own enum and object types.
func (c *checker) ref(p resource.Path, ref string, v resource.Value) {
	switch ref {
	case "pulumi.json#/Any", "pulumi.json#/Json":
		return
	case "pulumi.json#/Asset":
		c.expect(p, v, resource.AssetKind, "an asset")
		return
	case "pulumi.json#/Archive":
		c.expect(p, v, resource.ArchiveKind, "an archive")
		return
	}
	tok, ok := strings.CutPrefix(ref, "#/types/")
	typ := c.pkg.Types[tok]
	if !ok || typ == nil {
		c.fail(p, "the schema refers to type %q, which it does not define; this is a bug in the %s provider", ref, c.pkg.Name)
		return
	}
	if len(typ.Enum) > 0 {
		allowed := make([]string, len(typ.Enum))
		for i, e := range typ.Enum {
			if resource.FromGo(e.Value).Equal(v) {
				return
			}
			allowed[i] = fmt.Sprintf("%q", fmt.Sprint(e.Value))
		}
		c.fail(p, "must be one of %s", strings.Join(allowed, ", "))
		return
	}
	if c.expect(p, v, resource.ObjectKind, "an object") {
		c.object(p, typ.Properties, typ.Required, v.ObjectValue())
	}
}
