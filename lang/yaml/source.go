package yaml

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// source is one YAML file: its name, its bytes and where its lines start, so
// that the line and column the YAML parser gives can become hcl positions
// (which also carry byte offsets).
type source struct {
	name  string
	bytes []byte
	lines []int // byte offset of the start of each line
}

func newSource(name string, b []byte) *source {
	s := &source{name: name, bytes: b, lines: []int{0}}
	for i := 0; i < len(b); {
		if n := lineBreak(b[i:]); n > 0 {
			i += n
			s.lines = append(s.lines, i)
			continue
		}
		i++
	}
	return s
}

// lineBreak returns the length of the line break b starts with, or 0: YAML
// breaks lines at LF, CR, CRLF, NEL, LS and PS, and so does the parser when
// it counts lines.
func lineBreak(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '\n':
		return 1
	case b[0] == '\r':
		if len(b) > 1 && b[1] == '\n' {
			return 2
		}
		return 1
	}
	switch r, size := utf8.DecodeRune(b); r {
	case '\u0085', '\u2028', '\u2029':
		return size
	}
	return 0
}

// offset returns the byte offset of a 1-based line and column (columns
// count characters).
func (s *source) offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(s.lines) {
		return len(s.bytes)
	}
	off := s.lines[line-1]
	for c := 1; c < col && off < len(s.bytes) && lineBreak(s.bytes[off:]) == 0; c++ {
		_, size := utf8.DecodeRune(s.bytes[off:])
		off += size
	}
	return off
}

// pos returns the position of a byte offset.
func (s *source) pos(off int) hcl.Pos {
	off = max(0, min(off, len(s.bytes)))
	line := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off })
	start := s.lines[line-1]
	return hcl.Pos{Line: line, Column: utf8.RuneCount(s.bytes[start:off]) + 1, Byte: off}
}

// rng returns the range between two byte offsets.
func (s *source) rng(start, end int) hcl.Range {
	return hcl.Range{Filename: s.name, Start: s.pos(start), End: s.pos(max(start, end))}
}

// lineEnd returns the offset of the end of the line holding off.
func (s *source) lineEnd(off int) int {
	for off = max(0, off); off < len(s.bytes); off++ {
		if lineBreak(s.bytes[off:]) > 0 {
			return off
		}
	}
	return len(s.bytes)
}

// align maps each byte offset of a scalar's value (and the offset just past
// it) to a byte offset of the source text starting at from. The text may
// differ from the value by quotes, escapes, indentation and folded line
// breaks; each value byte is matched to the next source byte equal to it,
// skipping such characters, so positions inside escaped or folded strings
// are close rather than exact.
func (s *source) align(from int, value string) []int {
	out := make([]int, len(value)+1)
	j := min(max(0, from), len(s.bytes))
	for i := 0; i < len(value); i++ {
		c := value[i]
		k := j
		for k < len(s.bytes) && s.bytes[k] != c && isLayout(s.bytes[k]) {
			k++
		}
		switch {
		case k < len(s.bytes) && s.bytes[k] == c:
			out[i], j = k, k+1
		default:
			// An escape sequence: the value's byte is a little further on.
			window := s.bytes[j:min(j+12, len(s.bytes))]
			if w := bytes.IndexByte(window, c); w >= 0 {
				out[i], j = j+w, j+w+1
			} else {
				out[i] = j
			}
		}
	}
	out[len(value)] = j
	return out
}

// isLayout reports whether a source byte may stand between two value bytes
// without being part of the value.
func isLayout(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\\', '"', '\'':
		return true
	}
	return false
}
