package display

import (
	"strconv"
	"strings"
)

// screen replays output the way a terminal shows it and returns the screen's
// lines: text is written at the cursor, "\r" and "\n" move it, and of the
// escape sequences cursor up (CSI n A), erase line (CSI 2 K) and erase below
// (CSI J) act while colour (CSI … m) is dropped. It is enough for the live
// tree, which draws with nothing else.
func screen(out string) string {
	var lines [][]rune
	row, col := 0, 0
	grow := func() {
		for len(lines) <= row {
			lines = append(lines, nil)
		}
	}
	for i := 0; i < len(out); {
		if j := escapeEnd(out, i); j > i {
			params, final := out[i+2:j-1], out[j-1]
			n, err := strconv.Atoi(params)
			if err != nil {
				n = 1
			}
			grow()
			switch final {
			case 'A':
				row = max(0, row-n)
			case 'K':
				lines[row] = nil
			case 'J':
				lines = lines[:row+1]
				lines[row] = lines[row][:min(col, len(lines[row]))]
			}
			i = j
			continue
		}
		r, size := []rune(out[i:min(i+4, len(out))])[0], 1
		if r > 0x7f {
			size = len(string(r))
		}
		i += size
		switch r {
		case '\r':
			col = 0
		case '\n':
			row, col = row+1, 0
		default:
			grow()
			for len(lines[row]) <= col {
				lines[row] = append(lines[row], ' ')
			}
			lines[row][col] = r
			col++
		}
	}
	text := make([]string, len(lines))
	for i, l := range lines {
		text[i] = strings.TrimRight(string(l), " ")
	}
	return strings.TrimRight(strings.Join(text, "\n"), "\n") + "\n"
}
