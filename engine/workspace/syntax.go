package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"gopkg.in/yaml.v3"
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

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// misplaced are the yaml.v3 errors whose line is exact, an indicator found
// where it may not be, with how to find the indicator (the first group) on
// that line.
var misplaced = map[string]*regexp.Regexp{
	"mapping values are not allowed in this context":         regexp.MustCompile(`(:)(?:\s|$)`),
	"block sequence entries are not allowed in this context": regexp.MustCompile(`(?:^|\s)(-)(?:\s|$)`),
	"mapping keys are not allowed in this context":           regexp.MustCompile(`(?:^|\s)(\?)(?:\s|$)`),
}

// LocateYAMLError turns the error yaml.v3 returned for src into a
// SyntaxError with the line and column of the problem. yaml.v3 names only a
// line, often that of the enclosing construct or the one before it, so the
// problem is located by a second parser; when that one accepts the file,
// yaml.v3's line is kept. Errors that are not about syntax (a value of the
// wrong type) come back as they are.
func LocateYAMLError(path string, src []byte, err error) error {
	if te := (*yaml.TypeError)(nil); errors.As(err, &te) {
		return fmt.Errorf("%s: %w", path, err)
	}
	e := &SyntaxError{Path: path, Message: strings.TrimPrefix(err.Error(), "yaml: "), Column: 1}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Message = strings.TrimPrefix(err.Error(), m[0])
	}
	lines := strings.Split(string(src), "\n")
	if ind, ok := misplaced[e.Message]; ok && e.Line >= 1 && e.Line <= len(lines) {
		if loc := ind.FindStringSubmatchIndex(lines[e.Line-1]); loc != nil {
			e.Column = len([]rune(lines[e.Line-1][:loc[2]])) + 1
		}
	} else if _, perr := parser.ParseBytes(src, 0); perr != nil {
		var ye goccy.Error
		if errors.As(perr, &ye) && ye.GetToken() != nil {
			pos := ye.GetToken().Position
			e.Line, e.Column = pos.Line, pos.Column
		}
	}
	if e.Line < 1 || e.Line > len(lines) {
		e.Line = len(lines)
	}
	e.Source = strings.TrimRight(lines[e.Line-1], "\r")
	if n := len([]rune(e.Source)) + 1; e.Column > n {
		e.Column = n
	}
	return e
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
