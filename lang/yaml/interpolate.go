package yaml

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// template parses a string: text with ${…} interpolations, where $$ stands
// for $. A string without interpolations is a literal; one that is exactly
// one interpolation is that expression, keeping its type; anything else is
// a template whose parts are joined as strings.
//
// Inside ${…}, a Pulumi YAML property access (name, name.attr, name[0],
// name["key"], names such as my-bucket or aws:region) is read as such;
// anything else is an HCL expression (operators, conditionals, function
// calls, for expressions).
func (p *parser) template(n *node) hclsyntax.Expression {
	s := n.value
	offs := n.src.align(n.text, s)
	at := func(i, j int) hcl.Range {
		return hcl.Range{Filename: n.src.name, Start: n.src.pos(offs[i]), End: n.src.pos(offs[j])}
	}
	var parts []hclsyntax.Expression
	var lit strings.Builder
	litStart, interps := 0, 0
	flush := func(end int) {
		if lit.Len() > 0 {
			parts = append(parts, &hclsyntax.LiteralValueExpr{Val: cty.StringVal(lit.String()), SrcRange: at(litStart, end)})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$$"):
			if lit.Len() == 0 {
				litStart = i
			}
			lit.WriteByte('$')
			i += 2
		case strings.HasPrefix(s[i:], "${"):
			flush(i)
			e, next := p.interpolation(n, s, i+2, at)
			if e == nil {
				return &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: n.rng}
			}
			parts = append(parts, e)
			interps++
			i = next
		default:
			if lit.Len() == 0 {
				litStart = i
			}
			lit.WriteByte(s[i])
			i++
		}
	}
	flush(len(s))
	switch {
	case interps == 0:
		text := ""
		if len(parts) == 1 {
			text = parts[0].(*hclsyntax.LiteralValueExpr).Val.AsString()
		}
		return &hclsyntax.LiteralValueExpr{Val: cty.StringVal(text), SrcRange: n.rng}
	case len(parts) == 1:
		return parts[0]
	}
	return &hclsyntax.TemplateExpr{Parts: parts, SrcRange: n.rng}
}

// interpolation parses the inside of ${…} starting at s[start] and returns
// the expression and the offset after the closing brace, or nil after
// reporting an error.
func (p *parser) interpolation(n *node, s string, start int, at func(i, j int) hcl.Range) (hclsyntax.Expression, int) {
	if t, end, ok := propertyAccess(s, start, at); ok {
		return &hclsyntax.ScopeTraversalExpr{Traversal: t, SrcRange: at(start, end)}, end + 1
	}
	end, ok := closingBrace(s[start:])
	if !ok {
		p.errorf(at(start-2, len(s)), "Unterminated interpolation", "The ${ has no matching }; close it, or write $${ for a literal ${.")
		return nil, len(s)
	}
	src := s[start : start+end]
	if strings.TrimSpace(src) == "" {
		p.errorf(at(start-2, start+end+1), "Empty interpolation", "${} names nothing; write a name such as ${bucket.arn}, or $${} for the literal text.")
		return nil, start + end + 1
	}
	e, diags := hclsyntax.ParseExpression([]byte(src), n.src.name, at(start, start).Start)
	p.diags = append(p.diags, diags...)
	if diags.HasErrors() {
		return nil, start + end + 1
	}
	return e, start + end + 1
}

// propertyAccess reads a Pulumi YAML property access ending at a closing
// brace: a root name (or ["quoted"] key) followed by .name, [0] and
// ["key"] steps. Names may contain letters, digits, _, $, - and :. It
// returns the traversal and the offset of the closing brace.
func propertyAccess(s string, i int, at func(i, j int) hcl.Range) (hcl.Traversal, int, bool) {
	var t hcl.Traversal
	for i < len(s) {
		start := i
		switch c := s[i]; {
		case c == '}':
			return t, i, len(t) > 0
		case c == '.':
			if len(t) == 0 {
				return nil, 0, false
			}
			j := nameEnd(s, i+1)
			if j == i+1 {
				return nil, 0, false
			}
			t = append(t, hcl.TraverseAttr{Name: s[i+1 : j], SrcRange: at(start, j)})
			i = j
		case c == '[':
			key, j, ok := subscript(s, i+1)
			if !ok {
				return nil, 0, false
			}
			if len(t) == 0 {
				if key.Type() != cty.String {
					return nil, 0, false
				}
				t = append(t, hcl.TraverseRoot{Name: key.AsString(), SrcRange: at(start, j)})
			} else {
				t = append(t, hcl.TraverseIndex{Key: key, SrcRange: at(start, j)})
			}
			i = j
		default:
			if len(t) > 0 {
				return nil, 0, false
			}
			j := nameEnd(s, i)
			if j == i {
				return nil, 0, false
			}
			t = append(t, hcl.TraverseRoot{Name: s[i:j], SrcRange: at(start, j)})
			i = j
		}
	}
	return nil, 0, false
}

// nameEnd returns the end of the name starting at s[i].
func nameEnd(s string, i int) int {
	j := i
	for j < len(s) {
		c := s[j]
		letter := c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z')
		if !letter && (j == i || !(c >= '0' && c <= '9' || c == '-' || c == ':')) {
			break
		}
		j++
	}
	return j
}

// subscript reads [0] or ["key"] from after the bracket; it returns the key
// and the offset after the closing bracket.
func subscript(s string, i int) (cty.Value, int, bool) {
	if i < len(s) && s[i] == '"' {
		var b strings.Builder
		for j := i + 1; j < len(s); j++ {
			switch {
			case s[j] == '\\' && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\\'):
				b.WriteByte(s[j+1])
				j++
			case s[j] == '"':
				if j+1 < len(s) && s[j+1] == ']' {
					return cty.StringVal(b.String()), j + 2, true
				}
				return cty.NilVal, 0, false
			default:
				b.WriteByte(s[j])
			}
		}
		return cty.NilVal, 0, false
	}
	j := strings.IndexByte(s[i:], ']')
	if j <= 0 {
		return cty.NilVal, 0, false
	}
	n, err := strconv.ParseUint(s[i:i+j], 10, 31)
	if err != nil {
		return cty.NilVal, 0, false
	}
	return cty.NumberIntVal(int64(n)), i + j + 1, true
}

// closingBrace finds the brace that closes an interpolation in s, skipping
// braces inside the HCL expression (objects, nested templates, strings).
func closingBrace(s string) (int, bool) {
	tokens, _ := hclsyntax.LexExpression([]byte(s), "", hcl.Pos{Line: 1, Column: 1})
	depth := 0
	for _, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
		case hclsyntax.TokenCBrace, hclsyntax.TokenTemplateSeqEnd:
			if depth == 0 {
				return tok.Range.Start.Byte, true
			}
			depth--
		case hclsyntax.TokenEOF:
			return 0, false
		}
	}
	return 0, false
}
