package display

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// defaultWidth is the width assumed when no other is known.
const defaultWidth = 80

// Terminal reports whether w is a terminal, and if so its size in columns
// and lines.
func Terminal(w io.Writer) (ok bool, width, height int) {
	f, isFile := w.(*os.File)
	if !isFile || !term.IsTerminal(int(f.Fd())) {
		return false, 0, 0
	}
	width, height, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return true, 0, 0
	}
	return true, width, height
}

// sizeFunc returns how the live tree learns the screen's size: the Width
// option, else COLUMNS, else the terminal's (asked at each repaint, so that
// a resize is followed), else 80 columns. The height is known only from the
// terminal; 0 means unknown.
func sizeFunc(opts Options) func() (int, int) {
	if opts.Width > 0 {
		return func() (int, int) { return opts.Width, 0 }
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return func() (int, int) { return n, 0 }
	}
	return func() (int, int) {
		if _, w, h := Terminal(opts.Out); w > 0 {
			return w, h
		}
		return defaultWidth, 0
	}
}
