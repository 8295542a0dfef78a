package install

import (
	"fmt"
	"io"
	"strings"
)

// progress returns r, drawing a bar of how much of size bytes it has read
// on in.Progress, when set.
func (in *Installer) progress(s Spec, r io.Reader, size int64) io.Reader {
	if in.Progress == nil {
		return r
	}
	return &bar{r: r, w: in.Progress, label: fmt.Sprintf("%s v%s", s.Name, s.Version), size: size, last: -1}
}

// bar is a reader that redraws a one-line progress bar as it is read.
type bar struct {
	r     io.Reader
	w     io.Writer
	label string
	size  int64 // -1 when unknown
	read  int64
	last  int64 // the last step drawn
}

const barWidth = 30

func (b *bar) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += int64(n)
	b.draw(err != nil)
	return n, err
}

func (b *bar) draw(done bool) {
	mib := float64(b.read) / (1 << 20)
	if b.size <= 0 {
		step := b.read >> 20 // redraw every MiB
		if step != b.last || done {
			fmt.Fprintf(b.w, "\rdownloading %s  %.1f MiB", b.label, mib)
		}
		b.last = step
	} else {
		step := b.read * barWidth / b.size
		if step != b.last || done {
			fmt.Fprintf(b.w, "\rdownloading %s [%s%s] %.1f/%.1f MiB", b.label,
				strings.Repeat("=", int(step)), strings.Repeat(" ", barWidth-int(min(step, barWidth))), mib, float64(b.size)/(1<<20))
		}
		b.last = step
	}
	if done {
		fmt.Fprintln(b.w)
	}
}
