package lsp

import (
	"bytes"
	"strings"
)

// yamlCursor is where the cursor is in a YAML document, read from the text
// around it alone (by indentation, as a block-style document is written),
// so that a document half typed, which does not parse, still says where it
// is.
type yamlCursor struct {
	// path holds the keys of the mappings around the cursor, outermost
	// first; "[]" stands for an item of a sequence.
	path []string
	// key is the key under the cursor (inKey) or the key whose value holds
	// the cursor; "" for an item of a sequence.
	key   string
	inKey bool
	// word is the key or scalar under the cursor, unquoted, between the
	// byte offsets start and end; typed is the part before the cursor.
	word, typed string
	start, end  int
	// expr is set inside a ${…} interpolation: the expression before the
	// cursor.
	expr *exprCursor
}

// exprCursor is the cursor in an expression: the traversal (a.b[0].c)
// that ends at the cursor, and its extent around the cursor.
type exprCursor struct {
	steps      []string // the attribute names before the one typed (index steps dropped)
	typed      string   // the name typed so far
	word       string   // the whole name under the cursor
	start, end int      // the byte offsets of word
}

// yamlCursorAt reads the cursor's place at byte offset off of src.
func yamlCursorAt(src []byte, off int) yamlCursor {
	off = max(0, min(off, len(src)))
	ls := bytes.LastIndexAny(src[:off], "\r\n") + 1
	le := off + indexOr(bytes.IndexAny(src[off:], "\r\n"), len(src)-off)
	line := string(src[ls:le])
	col := off - ls
	var c yamlCursor
	if i := openInterpolation(line[:col]); i >= 0 {
		c.expr = exprCursorAt(src, ls+i, off, le)
	}

	indent := len(line) - len(strings.TrimLeft(line, " "))
	content := indent
	if rest := line[indent:]; rest == "-" || strings.HasPrefix(rest, "- ") {
		content = indent + 1 + len(rest[1:]) - len(strings.TrimLeft(rest[1:], " "))
	}
	if col < content { // in the indentation: a key of a mapping at the cursor's column
		content = col
	}
	// Right after a colon that ends the line, a key with colons may be
	// being typed: fn::, aws:.
	if sep := keySeparator(line, content); sep >= 0 && (col > sep+1 || col == sep+1 && col < len(line)) {
		c.key = unquote(strings.TrimSpace(line[content:sep]))
		vs := sep + 1 + len(line[sep+1:]) - len(strings.TrimLeft(line[sep+1:], " "))
		c.start, c.end = ls+min(vs, col), ls+scalarEnd(line, vs)
	} else {
		c.inKey = true
		c.start = ls + content
		if sep < 0 {
			sep = scalarEnd(line, content)
		}
		c.end = ls + sep
	}
	c.end = max(c.end, off)
	c.word = unquote(strings.TrimSpace(string(src[c.start:c.end])))
	c.typed = strings.TrimLeft(unquote(string(src[c.start:off])), " ")
	if content > indent && content != col {
		c.path = append(c.path, "[]")
	}
	c.path = append(yamlParents(src[:ls], min(indent, content)), c.path...)
	return c
}

// yamlParents returns the keys of the mappings that hold a line indented
// by limit, read from the lines before it (src), outermost first.
func yamlParents(src []byte, limit int) []string {
	var out []string
	for end := len(src); end > 0 && limit > 0; {
		start := bytes.LastIndexAny(src[:end-1], "\r\n") + 1
		line := strings.TrimRight(string(src[start:end]), "\r\n")
		end = start
		indent := len(line) - len(strings.TrimLeft(line, " "))
		rest := line[indent:]
		if rest == "" || rest[0] == '#' || strings.HasPrefix(rest, "---") {
			continue
		}
		if rest == "-" || strings.HasPrefix(rest, "- ") {
			item := indent + 1 + len(rest[1:]) - len(strings.TrimLeft(rest[1:], " "))
			switch {
			case item < limit:
				if sep := keySeparator(line, item); sep >= 0 {
					out = append(out, unquote(strings.TrimSpace(line[item:sep])))
				}
				out, limit = append(out, "[]"), indent
			case indent < limit:
				out, limit = append(out, "[]"), indent
			}
			continue
		}
		if indent < limit {
			if sep := keySeparator(line, indent); sep >= 0 {
				out = append(out, unquote(strings.TrimSpace(line[indent:sep])))
			}
			limit = indent
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// keySeparator returns the index of the colon that ends the key starting
// at from in line (one followed by a space or the end of the line, outside
// quotes), or -1.
func keySeparator(line string, from int) int {
	var quote byte
	for i := from; i < len(line); i++ {
		switch ch := line[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			if i == from {
				quote = ch
			}
		case ch == '#' && i > from && line[i-1] == ' ':
			return -1
		case ch == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			return i
		}
	}
	return -1
}

// scalarEnd returns where the scalar starting at from in line ends: before
// a comment or the end of the line.
func scalarEnd(line string, from int) int {
	if i := strings.Index(line[min(from, len(line)):], " #"); i >= 0 {
		return from + i
	}
	return len(line)
}

// openInterpolation returns the offset of the ${ in s whose interpolation
// is still open at the end of s, or -1.
func openInterpolation(s string) int {
	for i := strings.LastIndex(s, "${"); i >= 0; i = strings.LastIndex(s[:i], "${") {
		if i > 0 && s[i-1] == '$' { // $${ is an escaped $
			continue
		}
		depth := 0
		closed := false
		for _, ch := range s[i+2:] {
			switch ch {
			case '{':
				depth++
			case '}':
				if depth == 0 {
					closed = true
				}
				depth--
			}
			if closed {
				break
			}
		}
		if !closed {
			return i
		}
		return -1
	}
	return -1
}

// exprCursorAt reads the traversal that ends at off in an expression that
// starts at from (the interpolation's ${), on a line ending at lineEnd.
func exprCursorAt(src []byte, from, off, lineEnd int) *exprCursor {
	start := off
	for start > from && isTraversalByte(src[start-1]) {
		start--
	}
	end := off
	for end < lineEnd && isNameByte(src[end]) {
		end++
	}
	steps := splitTraversal(string(src[start:off]))
	typed := steps[len(steps)-1]
	c := &exprCursor{steps: steps[:len(steps)-1], typed: typed, start: off - len(typed), end: end}
	c.word = string(src[c.start:c.end])
	return c
}

// splitTraversal splits a traversal as written into its attribute names,
// leaving out index steps; the last element is what follows the last dot.
func splitTraversal(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ".") {
		if i := strings.IndexByte(part, '['); i >= 0 {
			part = part[:i]
		}
		out = append(out, part)
	}
	return out
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isTraversalByte(c byte) bool {
	return isNameByte(c) || c == '.' || c == '[' || c == ']' || c == '"'
}

// unquote removes the quotes around a scalar, and the one that opens a
// scalar still being typed.
func unquote(s string) string {
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return s
	}
	q := s[0]
	s = s[1:]
	if i := strings.IndexByte(s, q); i >= 0 {
		s = s[:i]
	}
	return s
}

func indexOr(i, or int) int {
	if i < 0 {
		return or
	}
	return i
}
