package display

import "strings"

// diffLine is one rendered line of a property diff: its mark and its text.
type diffLine struct {
	mark byte
	text string
}

// forcesReplacement follows a property whose change forces a replacement.
const forcesReplacement = " [forces replacement]"

// render writes changes as diff lines: "+ path: value" for additions,
// "- path: value" for removals, "~ path: old → new" for updates of values
// that fit on a line (a removal and an addition otherwise), and "  path:
// value" for context.
func (f valueFormat) render(cs []change) []diffLine {
	var out []diffLine
	for _, c := range cs {
		start := len(out)
		switch {
		case c.mark == markUpdate && c.hasOld && c.hasNew:
			olds, news := f.lines(c.old), f.lines(c.new)
			if len(olds) == 1 && len(news) == 1 {
				out = append(out, diffLine{markUpdate, c.path + ": " + olds[0] + " → " + news[0]})
			} else {
				out = member(out, markDelete, c.path, olds)
				out = member(out, markAdd, c.path, news)
			}
		case c.hasNew && c.mark != markDelete:
			out = member(out, c.mark, c.path, f.lines(c.new))
		case c.hasOld:
			out = member(out, c.mark, c.path, f.lines(c.old))
		default:
			out = append(out, diffLine{c.mark, c.path})
		}
		if c.replace {
			out[start].text += forcesReplacement
		}
	}
	return out
}

// member appends a property and its value's lines, all with one mark.
func member(out []diffLine, mark byte, path string, value []string) []diffLine {
	out = append(out, diffLine{mark, path + ": " + value[0]})
	for _, l := range value[1:] {
		out = append(out, diffLine{mark, l})
	}
	return out
}

// markColor is the colour of a diff line with the mark.
func markColor(mark byte) string {
	switch mark {
	case markAdd:
		return green
	case markDelete:
		return red
	case markUpdate:
		return yellow
	}
	return ""
}

// writeDiffLines writes diff lines for a terminal or a log, each under
// indent and coloured by its mark.
func writeDiffLines(b *strings.Builder, lines []diffLine, indent string, p painter) {
	for _, l := range lines {
		b.WriteString(indent)
		b.WriteString(p.paint(markColor(l.mark), string(l.mark)+" "+l.text))
		b.WriteByte('\n')
	}
}
