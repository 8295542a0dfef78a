package yaml

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	yaml "go.yaml.in/yaml/v4"
)

// expr turns a YAML value into an expression: scalars are literals or
// templates, sequences tuples, mappings objects, and a mapping whose only
// key is a builtin (fn::…) a call.
func (p *parser) expr(n *node) hclsyntax.Expression {
	switch n.kind {
	case yaml.SequenceNode:
		exprs := make([]hclsyntax.Expression, len(n.items))
		for i, it := range n.items {
			exprs[i] = p.expr(it)
		}
		return &hclsyntax.TupleConsExpr{Exprs: exprs, SrcRange: n.rng, OpenRange: openRange(n)}
	case yaml.MappingNode:
		if len(n.pairs) == 1 {
			if e := p.builtin(n, n.pairs[0]); e != nil {
				return e
			}
		}
		items := make([]hclsyntax.ObjectConsItem, 0, len(n.pairs))
		for _, kv := range n.pairs {
			if len(n.pairs) > 1 && hasBuiltinPrefix(kv.key.value) {
				p.warnf(kv.key.rng, "Reserved prefix", "Keys starting with fn:: name builtins, which must be the only key of their mapping; %q is read as a plain key.", kv.key.value)
			}
			items = append(items, hclsyntax.ObjectConsItem{KeyExpr: p.key(kv.key), ValueExpr: p.expr(kv.value)})
		}
		return &hclsyntax.ObjectConsExpr{Items: items, SrcRange: n.rng, OpenRange: openRange(n)}
	}
	if v, ok := p.scalarValue(n); ok {
		return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: n.rng}
	}
	return p.template(n)
}

// key is the expression of a mapping key. As in Pulumi YAML, a key is read
// like a string value: $$ stands for $, and ${…} interpolates.
func (p *parser) key(k *node) hclsyntax.Expression {
	var e hclsyntax.Expression = &hclsyntax.LiteralValueExpr{Val: cty.StringVal(k.value), SrcRange: k.rng}
	if k.kind == yaml.ScalarNode && strings.Contains(k.value, "$") {
		// In parentheses, a key that is one name is a reference to it.
		e = &hclsyntax.ParenthesesExpr{Expression: p.template(k), SrcRange: k.rng}
	}
	return &hclsyntax.ObjectConsKeyExpr{Wrapped: e}
}

func openRange(n *node) hcl.Range {
	r := n.rng
	r.End = n.src.pos(r.Start.Byte + 1)
	return r
}

// scalarValue returns the value of a scalar that is not a string: null, a
// boolean or a number. It reports NaN and infinities, which programs cannot
// use.
func (p *parser) scalarValue(n *node) (cty.Value, bool) {
	switch n.tag {
	case "!!null":
		return cty.NullVal(cty.DynamicPseudoType), true
	case "!!bool":
		return cty.BoolVal(strings.EqualFold(n.value, "true")), true
	case "!!int":
		text := strings.ReplaceAll(n.value, "_", "")
		if i, err := strconv.ParseInt(text, 0, 64); err == nil {
			return cty.NumberIntVal(i), true
		}
		if b, ok := new(big.Int).SetString(text, 0); ok {
			return cty.NumberVal(new(big.Float).SetInt(b)), true
		}
	case "!!float":
		if v, err := cty.ParseNumberVal(strings.ReplaceAll(n.value, "_", "")); err == nil {
			return v, true
		}
		p.errorf(n.rng, "Invalid number", "%s is not a finite number; programs can only use finite numbers.", n.value)
		return cty.DynamicVal, true
	}
	return cty.NilVal, false
}

// staticValue returns the value of a YAML value read as plain data, with no
// interpolation or builtins (configuration defaults); $$ in its strings and
// keys stands for $, as everywhere else.
func (p *parser) staticValue(n *node) cty.Value {
	switch n.kind {
	case yaml.SequenceNode:
		if len(n.items) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(n.items))
		for i, it := range n.items {
			vals[i] = p.staticValue(it)
		}
		return cty.TupleVal(vals)
	case yaml.MappingNode:
		if len(n.pairs) == 0 {
			return cty.EmptyObjectVal
		}
		attrs := make(map[string]cty.Value, len(n.pairs))
		for _, kv := range n.pairs {
			attrs[unescape(kv.key.value)] = p.staticValue(kv.value)
		}
		return cty.ObjectVal(attrs)
	}
	if v, ok := p.scalarValue(n); ok {
		return v
	}
	return cty.StringVal(unescape(n.value))
}

// stringLiteral returns the text of a scalar that is a plain string, with
// no interpolation.
func stringLiteral(n *node) (string, bool) {
	if n == nil || n.kind != yaml.ScalarNode || n.tag == "!!null" || strings.Contains(n.value, "${") {
		return "", false
	}
	return unescape(n.value), true
}

// unescape reads the $$ escapes of a string without interpolations.
func unescape(s string) string { return strings.ReplaceAll(s, "$$", "$") }
