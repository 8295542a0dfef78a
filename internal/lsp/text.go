package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// text is a document's content with the offsets of its lines, to convert
// between byte offsets and the protocol's positions (UTF-16 code units).
type text struct {
	src   []byte
	lines []int // byte offset of the start of each line
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			t.lines = append(t.lines, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// lineEnd returns the offset of the end of a line, before its line break.
func (t *text) lineEnd(line int) int {
	end := len(t.src)
	if line+1 < len(t.lines) {
		end = t.lines[line+1]
	}
	for end > t.lines[line] && (t.src[end-1] == '\n' || t.src[end-1] == '\r') {
		end--
	}
	return end
}

// offset returns the byte offset of a position, clamped to the document
// and to the end of its line.
func (t *text) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	off, end := t.lines[p.Line], t.lineEnd(p.Line)
	for units := 0; off < end && units < p.Character; {
		r, size := utf8.DecodeRune(t.src[off:end])
		units += utf16Len(r)
		off += size
	}
	return off
}

// position returns the position of a byte offset.
func (t *text) position(off int) Position {
	off = max(0, min(off, len(t.src)))
	line := 0
	for lo, hi := 0, len(t.lines); lo < hi; {
		mid := (lo + hi) / 2
		if t.lines[mid] <= off {
			line, lo = mid, mid+1
		} else {
			hi = mid
		}
	}
	units := 0
	for s := t.src[t.lines[line]:min(off, t.lineEnd(line))]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		units += utf16Len(r)
		s = s[size:]
	}
	return Position{Line: line, Character: units}
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// rng returns the protocol range of an hcl range of this text.
func (t *text) rng(r hcl.Range) Range {
	return Range{Start: t.position(r.Start.Byte), End: t.position(r.End.Byte)}
}

// contains reports whether the byte offset off is within r (its end
// included, where a cursor just after a word still touches it).
func contains(r hcl.Range, off int) bool { return r.Start.Byte <= off && off <= r.End.Byte }

// apply applies a change to the document and returns the new content.
func (t *text) apply(c contentChange) ([]byte, error) {
	if c.Range == nil {
		return []byte(c.Text), nil
	}
	start, end := t.offset(c.Range.Start), t.offset(c.Range.End)
	if end < start {
		return nil, fmt.Errorf("the change's range ends (%d:%d) before it starts (%d:%d)",
			c.Range.End.Line, c.Range.End.Character, c.Range.Start.Line, c.Range.Start.Character)
	}
	out := make([]byte, 0, len(t.src)-(end-start)+len(c.Text))
	out = append(append(append(out, t.src[:start]...), c.Text...), t.src[end:]...)
	return out, nil
}

// pathOf returns the file path of a file: URI.
func pathOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("%q is not a file: URI; the server reads documents of the file system only", uri)
	}
	p := filepath.FromSlash(u.Path)
	if len(p) >= 3 && p[0] == '\\' && p[2] == ':' { // file:///C:/x on Windows
		p = p[1:]
	}
	return filepath.Clean(p), nil
}

// uriOf returns the file: URI of a path.
func uriOf(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
