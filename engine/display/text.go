package display

import (
	"strings"
	"unicode/utf8"
)

// truncate cuts s to width visible characters, the last of them "…",
// passing ANSI escape sequences through without counting them (and ending
// with a reset if it kept any). A width of 0 or less leaves s whole.
func truncate(s string, width int) string {
	if width <= 0 || visibleWidth(s) <= width {
		return s
	}
	var b strings.Builder
	n, escaped := 0, false
	for i := 0; i < len(s) && n < width-1; {
		if j := escapeEnd(s, i); j > i {
			b.WriteString(s[i:j])
			escaped, i = true, j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		n, i = n+1, i+size
	}
	b.WriteString("…")
	if escaped {
		b.WriteString(reset)
	}
	return b.String()
}

// visibleWidth counts the characters of s that take a place on screen.
func visibleWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if j := escapeEnd(s, i); j > i {
			i = j
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		n, i = n+1, i+size
	}
	return n
}

// escapeEnd returns where the CSI escape sequence that starts at i ends, or
// i when none starts there.
func escapeEnd(s string, i int) int {
	if !strings.HasPrefix(s[i:], "\x1b[") {
		return i
	}
	for j := i + 2; j < len(s); j++ {
		if s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
	}
	return len(s)
}
