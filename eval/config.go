package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// FullKey returns the configuration key of c in project: "<project>:<key>"
// for a key without a namespace.
func (c *Config) FullKey(project string) string {
	if strings.Contains(c.Key, ":") {
		return c.Key
	}
	return project + ":" + c.Key
}

// ConfigValue returns the value of c given the stack's configuration: the
// stored value converted to c's type (strings are parsed: "3" is the
// number 3 when the type is a number, JSON when it is a list or an object),
// or the default, marked secret when either is secret or c says so. A
// value given over the configuration (c.Over) wins, one given under it
// (c.Under) stands in for a missing one.
func ConfigValue(c *Config, project string, config map[string]resource.Value) (cty.Value, hcl.Diagnostics) {
	key := c.FullKey(project)
	if c.Over != nil {
		return givenValue(c, c.Over, key, project)
	}
	raw, ok := config[key]
	if !ok || c.NotNull && raw.IsNull() {
		if c.Under != nil {
			return givenValue(c, c.Under, key, project)
		}
		return defaultValue(c, key, project)
	}
	// An ephemeral value is stored encrypted but is not secret: it never
	// reaches the state anyway (the configuration of a provider keeps it
	// as a secret).
	secret := c.Secret || raw.ContainsSecrets() && !c.Ephemeral
	v, err := c.convertConfig(raw.Unsecret())
	if err != nil {
		return cty.DynamicVal, hcl.Diagnostics{errorDiag(c.NameRange,
			fmt.Sprintf("Invalid value for configuration %s", key),
			fmt.Sprintf("The stack's value of %s %v; set a %s with `%s`.", key, err, typeName(c.Type), c.setCommand(project)))}
	}
	if secret {
		v = v.Mark(values.Secret)
	}
	return v, nil
}

// givenValue returns a value given beside the stack's configuration,
// converted to c's type.
func givenValue(c *Config, g *GivenValue, key, project string) (cty.Value, hcl.Diagnostics) {
	if c.NotNull && g.Value.IsNull() {
		return defaultValue(c, key, project)
	}
	v, err := c.convert(g.Value)
	if err != nil {
		at := c.NameRange
		if g.Range != nil {
			at = *g.Range
		}
		return cty.DynamicVal, hcl.Diagnostics{errorDiag(at, fmt.Sprintf("Invalid value for variable %s", c.Name),
			fmt.Sprintf("The value given by %s %v; give a %s.", g.Source, err, typeName(c.Type)))}
	}
	if c.Secret {
		v = v.Mark(values.Secret)
	}
	return v, nil
}

// defaultValue returns the default of a configuration that has no value.
func defaultValue(c *Config, key, project string) (cty.Value, hcl.Diagnostics) {
	if c.Default == nil {
		why := "the program gives it no default"
		if c.Implicit {
			why = "the program uses it without declaring it, so it has no default"
		}
		return cty.DynamicVal, hcl.Diagnostics{errorDiag(c.NameRange,
			fmt.Sprintf("Missing required configuration %s", key),
			fmt.Sprintf("The stack has no value for %s and %s; run `%s`.", key, why, c.setCommand(project)))}
	}
	v, diags := c.Default.Value(nil)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, err := c.convert(v)
	if err != nil {
		return cty.DynamicVal, append(diags, errorDiag(c.Default.Range(),
			"Default value has the wrong type",
			fmt.Sprintf("The default of %s %v.", key, err)))
	}
	if c.Secret {
		v = v.Mark(values.Secret)
	}
	return v, diags
}

// setCommand is the command that sets c's value.
func (c *Config) setCommand(project string) string {
	key := c.FullKey(project)
	if short, ok := strings.CutPrefix(key, project+":"); ok {
		key = short
	}
	if c.Secret {
		return "cairn config set --secret " + key + " <value>"
	}
	return "cairn config set " + key + " <value>"
}

// convertConfig converts a stored configuration value to c's type.
func (c *Config) convertConfig(raw resource.Value) (cty.Value, error) {
	ty := c.Type
	if !raw.IsString() || ty == cty.String || ty == cty.DynamicPseudoType {
		return c.convert(values.FromEngine(raw))
	}
	s := raw.StringValue()
	switch {
	case ty == cty.Number:
		n, err := cty.ParseNumberVal(strings.TrimSpace(s))
		if err != nil {
			return cty.NilVal, fmt.Errorf("is %q, not a number", s)
		}
		return n, nil
	case ty == cty.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return cty.NilVal, fmt.Errorf("is %q, not true or false", s)
		}
		return cty.BoolVal(b), nil
	}
	implied, err := ctyjson.ImpliedType([]byte(s))
	if err != nil {
		return cty.NilVal, fmt.Errorf("is not valid JSON (%v)", err)
	}
	v, err := ctyjson.Unmarshal([]byte(s), implied)
	if err != nil {
		return cty.NilVal, fmt.Errorf("is not valid JSON (%v)", err)
	}
	return c.convert(v)
}

// convert fills in the defaults of v's optional attributes and converts it
// to c's type.
func (c *Config) convert(v cty.Value) (cty.Value, error) {
	if c.Defaults != nil {
		v = c.Defaults.Apply(v)
	}
	if c.TerraformTypes && isAnyObject(c.Type) {
		out, err := convert.Convert(v, c.Type)
		if err != nil {
			return cty.NilVal, fmt.Errorf("is not a %s: %s", typeexpr.TypeString(c.Type), convert.MismatchMessage(v.Type(), c.Type))
		}
		return out, nil
	}
	return convertTo(v, c.Type)
}

// convertTo converts v to ty; a map of any type accepts any object.
func convertTo(v cty.Value, ty cty.Type) (cty.Value, error) {
	if ty == cty.NilType || ty == cty.DynamicPseudoType {
		return v, nil
	}
	if isAnyObject(ty) {
		if vt := v.Type(); vt.IsObjectType() || vt.IsMapType() || v.IsNull() {
			return v, nil
		}
		return cty.NilVal, fmt.Errorf("is a %s, not an object", v.Type().FriendlyName())
	}
	out, err := convert.Convert(v, ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("is a %s, not a %s", v.Type().FriendlyName(), typeName(ty))
	}
	return out, nil
}

func isAnyObject(ty cty.Type) bool {
	return ty.IsMapType() && ty.ElementType() == cty.DynamicPseudoType
}

// typeName names a configuration type the way YAML programs write it.
func typeName(ty cty.Type) string {
	switch {
	case ty == cty.NilType || ty == cty.DynamicPseudoType:
		return "value"
	case ty == cty.String:
		return "string"
	case ty == cty.Number:
		return "number"
	case ty == cty.Bool:
		return "boolean"
	case isAnyObject(ty):
		return "object"
	case ty.IsListType():
		return "list<" + typeName(ty.ElementType()) + ">"
	}
	return ty.FriendlyName()
}
