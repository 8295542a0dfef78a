package display

import (
	"fmt"
	"os"
	"strings"
)

// SGR colour codes used by the display.
const (
	reset   = "\x1b[0m"
	bold    = "\x1b[1m"
	dim     = "\x1b[2m"
	red     = "\x1b[31m"
	green   = "\x1b[32m"
	yellow  = "\x1b[33m"
	magenta = "\x1b[35m"
	cyan    = "\x1b[36m"
)

// ColorEnabled resolves the --color flag: "always" and "never" decide;
// "auto" (or "") colours a terminal unless the NO_COLOR environment variable
// is set to a non-empty value or TERM is "dumb". An explicit "always" wins
// over NO_COLOR, as the NO_COLOR convention asks of command-line flags.
func ColorEnabled(flag string, terminal bool) (bool, error) {
	switch strings.ToLower(flag) {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "", "auto":
		return terminal && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb", nil
	}
	return false, fmt.Errorf("--color %q: want auto, always or never", flag)
}

// painter wraps text in colour codes, or leaves it alone when colour is off.
type painter bool

// paint returns s in the colour code, or s itself when colour is off or the
// code is empty.
func (p painter) paint(code, s string) string {
	if !p || code == "" || s == "" {
		return s
	}
	return code + s + reset
}
