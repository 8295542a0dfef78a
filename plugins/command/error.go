package command

import (
	"fmt"
	"strings"
)

// Error is the failure of a command that ran and exited with a status other
// than 0.
type Error struct {
	Op       string // "create", "update", "delete" or "run"
	ExitCode int
	// Tail is the end of what the command wrote to stderr (to stdout, when
	// it wrote nothing to stderr).
	Tail string
}

func (e *Error) Error() string {
	if e.Tail == "" {
		return fmt.Sprintf("the %s command failed with exit code %d and wrote nothing", e.Op, e.ExitCode)
	}
	return fmt.Sprintf("the %s command failed with exit code %d:\n%s", e.Op, e.ExitCode, e.Tail)
}

// The most of a failed command's output that its error quotes.
const (
	tailLines = 20
	tailBytes = 4096
)

// tail returns the last lines of stderr, or of stdout when stderr is empty,
// marked as cut when they are not the whole.
func tail(stderr, stdout string) string {
	s := strings.TrimRight(stderr, "\n")
	if strings.TrimSpace(s) == "" {
		s = strings.TrimRight(stdout, "\n")
	}
	cut := false
	if len(s) > tailBytes {
		s, cut = s[len(s)-tailBytes:], true
	}
	if lines := strings.Split(s, "\n"); len(lines) > tailLines {
		s, cut = strings.Join(lines[len(lines)-tailLines:], "\n"), true
	} else if cut {
		// Drop the partial first line.
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	if cut {
		return "…\n" + s
	}
	return s
}
