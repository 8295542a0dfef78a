package lsp

import (
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// hclCursor is where the cursor is in an HCL document, read from its
// tokens, which any text has, so that a document half typed still says
// where it is.
type hclCursor struct {
	// blocks holds the headers (type and labels) of the blocks around the
	// cursor, outermost first.
	blocks [][]string
	// label is the index of the label of a block header the cursor is in,
	// or -1; header holds the type and labels before it.
	label  int
	header []string
	// attr is the argument whose value holds the cursor; "" when the
	// cursor is where an argument or a block begins.
	attr string
	// inString is set in a quoted string outside an interpolation.
	inString bool
	// word is the name (or label) under the cursor, between the byte
	// offsets start and end; typed is its part before the cursor.
	word, typed string
	start, end  int
	// expr is the traversal ending at the cursor in a value.
	expr *exprCursor
}

// hclFrame is one open construct: a block body, an expression in
// brackets, or a string.
type hclFrame struct {
	kind   byte     // 'b' body, 'e' expression, 's' string
	header []string // a body's block header
	attr   string   // the argument an expression or string is the value of
	stmt   []hclsyntax.Token
}

// hclCursorAt reads the cursor's place at byte offset off of src.
func hclCursorAt(src []byte, off int) hclCursor {
	off = max(0, min(off, len(src)))
	tokens, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	stack := []*hclFrame{{kind: 'b'}}
	top := func() *hclFrame { return stack[len(stack)-1] }
	push := func(kind byte, attr string) { stack = append(stack, &hclFrame{kind: kind, attr: attr}) }
	pop := func() {
		if len(stack) > 1 {
			stack = stack[:len(stack)-1]
		}
	}
	c := hclCursor{label: -1, start: off, end: off}
	for _, tok := range tokens {
		if tok.Range.Start.Byte >= off || tok.Type == hclsyntax.TokenEOF {
			break
		}
		if tok.Range.End.Byte >= off && (tok.Type == hclsyntax.TokenIdent || tok.Type == hclsyntax.TokenQuotedLit) {
			break // the word under the cursor
		}
		f := top()
		switch f.kind {
		case 'b':
			switch tok.Type {
			case hclsyntax.TokenNewline:
				f.stmt = nil
			case hclsyntax.TokenComment:
				if bytes.HasSuffix(tok.Bytes, []byte("\n")) {
					f.stmt = nil
				}
			case hclsyntax.TokenOBrace:
				if attr, ok := assigned(f.stmt); ok {
					push('e', attr)
				} else {
					stack = append(stack, &hclFrame{kind: 'b', header: words(f.stmt)})
				}
				f.stmt = nil
			case hclsyntax.TokenCBrace:
				pop()
			case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
				attr, _ := assigned(f.stmt)
				f.stmt = append(f.stmt, tok)
				push('s', attr)
			case hclsyntax.TokenOBrack, hclsyntax.TokenOParen:
				attr, _ := assigned(f.stmt)
				f.stmt = append(f.stmt, tok)
				push('e', attr)
			default:
				f.stmt = append(f.stmt, tok)
			}
		case 'e':
			switch tok.Type {
			case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen:
				push('e', f.attr)
			case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
				pop()
			case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
				push('s', f.attr)
			}
		case 's':
			switch tok.Type {
			case hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
				push('e', f.attr)
			case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
				pop()
				if parent := top(); parent.kind == 'b' {
					parent.stmt = append(parent.stmt, tok)
				}
			case hclsyntax.TokenQuotedLit, hclsyntax.TokenStringLit:
				if parent := stack[len(stack)-2]; parent.kind == 'b' {
					parent.stmt = append(parent.stmt, tok)
				}
			}
		}
	}
	for _, f := range stack {
		if f.kind == 'b' && f.header != nil {
			c.blocks = append(c.blocks, f.header)
		}
	}
	f := top()
	c.word, c.start, c.end = wordAt(src, off, f.kind == 's')
	c.typed = string(src[c.start:off])
	switch f.kind {
	case 'b':
		if attr, ok := assigned(f.stmt); ok {
			c.attr = attr
			c.expr = exprCursorAt(src, lineStart(src, off), off, c.end)
		}
	case 's':
		parent := stack[len(stack)-2]
		if _, ok := assigned(parent.stmt); parent.kind == 'b' && !ok {
			c.header = words(parent.stmt)
			c.label = len(c.header) - 1
		} else {
			c.attr, c.inString = f.attr, true
		}
	case 'e':
		c.attr = f.attr
		c.expr = exprCursorAt(src, lineStart(src, off), off, c.end)
	}
	return c
}

// assigned returns the argument a statement assigns, when it is
// "name = ...".
func assigned(stmt []hclsyntax.Token) (string, bool) {
	if len(stmt) >= 2 && stmt[0].Type == hclsyntax.TokenIdent && stmt[1].Type == hclsyntax.TokenEqual {
		return string(stmt[0].Bytes), true
	}
	return "", false
}

// words returns the type and the closed labels of a block header.
func words(stmt []hclsyntax.Token) []string {
	var out []string
	var label *strings.Builder
	for _, t := range stmt {
		switch t.Type {
		case hclsyntax.TokenIdent:
			if label == nil {
				out = append(out, string(t.Bytes))
			}
		case hclsyntax.TokenOQuote:
			label = &strings.Builder{}
		case hclsyntax.TokenQuotedLit:
			if label != nil {
				label.Write(t.Bytes)
			}
		case hclsyntax.TokenCQuote:
			if label != nil {
				out = append(out, label.String())
				label = nil
			}
		}
	}
	return out
}

// wordAt returns the name under off and its extent: identifier bytes, or
// inside a string anything up to the quotes.
func wordAt(src []byte, off int, inString bool) (string, int, int) {
	in := isNameByte
	if inString {
		in = func(c byte) bool { return c != '"' && c != '\n' && c != '$' }
	}
	start, end := off, off
	for start > 0 && in(src[start-1]) {
		start--
	}
	for end < len(src) && in(src[end]) {
		end++
	}
	return string(src[start:end]), start, end
}

func lineStart(src []byte, off int) int { return bytes.LastIndexByte(src[:off], '\n') + 1 }
