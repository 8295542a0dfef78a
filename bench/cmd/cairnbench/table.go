package main

import (
	"fmt"
	"strings"
	"time"
)

func header() string {
	cols := append([]string{"scenario", "N", "language", "provider"}, phaseNames[:]...)
	cols = append(cols, "written by create / state")
	return "| " + strings.Join(cols, " | ") + " |\n|" + strings.Repeat(" --- |", len(cols))
}

func (r row) label() string {
	s := string(r.stack.shape)
	if r.stack.shape == slow {
		s = fmt.Sprintf("latency %s, --parallel %d", r.latency, r.parallel)
	}
	if r.postgres {
		s += " on PostgreSQL"
	}
	return fmt.Sprintf("| %s | %d | %s | %s |", s, r.stack.n, upper(r.stack.lang), r.variant)
}

// line measures the row and formats it. Each cell is the median wall time
// and peak RSS; the latency stack's create, refresh and destroy also show
// the ideal, N × latency / parallelism, and how far from it they are, and
// the phases of cairn's stacks of null_resource their floor (see floors).
func (b *bench) line(r row) (string, result, error) {
	cells := []string{r.label()}
	res, err := b.measure(r)
	if err != nil {
		return "", res, fmt.Errorf("%s: %w", r.label(), err)
	}
	for p, s := range res.phases {
		cell := fmt.Sprintf("%s · %s", seconds(s.wall), mib(s.maxRSS))
		if r.latency > 0 && (p == phaseUp || p == phaseRefresh || p == phaseDestroy) {
			ideal := time.Duration(r.stack.n) * r.latency / time.Duration(r.parallel)
			cell += fmt.Sprintf(" (ideal %s: %.2f×)", seconds(ideal), float64(s.wall)/float64(ideal))
		}
		if f := res.floors[p]; f > 0 {
			cell += fmt.Sprintf(" (floor %s: %.2f×)", seconds(f), float64(s.wall)/float64(f))
		}
		cells = append(cells, cell+" |")
	}
	up := res.phases[phaseUp].written
	cells = append(cells, fmt.Sprintf("%s / %s = %.1f× |", mib(up), mib(res.stateSize), float64(up)/float64(res.stateSize)))
	return strings.Join(cells, " "), res, nil
}

func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
