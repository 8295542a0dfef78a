package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// SyntaxError is a YAML file that does not parse: where, and why.
type SyntaxError struct {
	Path         string
	Line, Column int // 1-based; columns count characters
	Message      string
	// Source is the line the error is on.
	Source string
}

// Error renders the error as file:line:column, then the source line with a
// caret under the column.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: not valid YAML: %s\n  %d | %s\n  %s   %s^", e.Path, e.Line, e.Column, e.Message,
		e.Line, e.Source, strings.Repeat(" ", len(strconv.Itoa(e.Line))), caretPad(e.Source, e.Column))
}

// caretPad is the blank that puts a caret under the column of line, keeping
// its tabs so that the caret lines up.
func caretPad(line string, col int) string {
	var b strings.Builder
	for i, r := range []rune(line) {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteRune('\t')
		} else {
			b.WriteRune(' ')
		}
	}
	return b.String()
}

// LocateYAMLError returns err, which the YAML library returned reading src
// (the file at path), at the position the parser gives: a SyntaxError for
// a file that does not parse, path:line:column before each value that does
// not decode, and path before any other error.
//
// A syntax error is where the parser found the problem, unless that is the
// end of the file: the parser then names the construct it was reading (an
// unclosed quote or bracket), whose start is where the problem is. The
// message says which construct the parser was reading, and where it starts
// when that is elsewhere.
func LocateYAMLError(path string, src []byte, err error) error {
	if les := (*yaml.LoadErrors)(nil); errors.As(err, &les) {
		msgs := make([]string, len(les.Errors))
		for i, e := range les.Errors {
			msgs[i] = fmt.Sprintf("%s:%d:%d: %s", path, e.Mark.Line, e.Mark.Column, e.Message)
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	le := (*yaml.LoadError)(nil)
	if !errors.As(err, &le) {
		return fmt.Errorf("%s: %w", path, err)
	}
	lines := strings.Split(string(src), "\n")
	at, known := le.Mark, le.Mark.Line > 0
	if !known {
		// The reader's errors (bytes that are not UTF-8) give the offset of
		// the byte only.
		at = markOf(src, le.Mark.Index)
	}
	context, hasContext := le.ContextMark, le.ContextMark.Line > 0 && !atEnd(lines, le.ContextMark)
	switch {
	case atEnd(lines, at) && hasContext:
		at = context
	case atEnd(lines, at):
		at = markOf(src, len(bytes.TrimRight(src, " \t\r\n")))
	}
	msg := le.Message
	if le.ContextMsg != "" {
		msg += " " + le.ContextMsg
		if hasContext && (context.Line != at.Line || context.Column != at.Column) {
			msg += fmt.Sprintf(" that starts at %d:%d", context.Line, context.Column)
		}
	}
	source := strings.TrimRight(lines[at.Line-1], "\r")
	col := min(max(at.Column, 1), utf8.RuneCountInString(source)+1)
	return &SyntaxError{Path: path, Line: at.Line, Column: col, Message: msg, Source: source}
}

// markOf returns the line and column of a byte offset of src.
func markOf(src []byte, off int) yaml.Mark {
	before := src[:min(max(off, 0), len(src))]
	start := bytes.LastIndexByte(before, '\n') + 1
	return yaml.Mark{Index: len(before), Line: bytes.Count(before, []byte("\n")) + 1, Column: utf8.RuneCount(before[start:]) + 1}
}

// atEnd reports whether m is past the last character of the file (whose
// lines are lines) that is not blank.
func atEnd(lines []string, m yaml.Mark) bool {
	if m.Line > len(lines) {
		return true
	}
	if line := []rune(lines[m.Line-1]); m.Column-1 < len(line) && strings.TrimSpace(string(line[max(m.Column-1, 0):])) != "" {
		return false
	}
	for _, l := range lines[m.Line:] {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

var topLevelName = regexp.MustCompile(`(?m)^name:[ \t]*(["']?)([A-Za-z0-9_.-]+)(["']?)[ \t]*(?:#.*)?\r?$`)

// ProjectNameOnly reads the name of a project whose file does not parse, for
// commands that need only that (listing, exporting and importing state): a
// top-level `name:` line with a plain or quoted name. It returns nil when
// there is none, or more than one.
func ProjectNameOnly(se *SyntaxError) *Project {
	data, err := os.ReadFile(se.Path)
	if err != nil {
		return nil
	}
	m := topLevelName.FindAllSubmatch(data, -1)
	if len(m) != 1 || string(m[0][1]) != string(m[0][3]) {
		return nil
	}
	return &Project{Name: string(m[0][2]), Path: se.Path, Dir: filepath.Dir(se.Path)}
}
