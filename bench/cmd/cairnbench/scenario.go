package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// The phases of a stack's life that the benchmark measures, in order.
const (
	phaseUp = iota
	phasePreview
	phaseNoChangeUp
	phaseRefresh
	phaseUpdate
	phaseDestroy
	numPhases
)

var phaseNames = [numPhases]string{"up (create)", "preview (no change)", "up (no change)", "refresh", "update 1%", "destroy"}

// row is one line of the table: a stack run by one provider variant.
type row struct {
	stack    stack
	variant  string // "in-process", "gRPC plugin" or "plugin binary"
	parallel int    // --parallel, 0 for cairn's default
	latency  time.Duration
	postgres bool // on the PostgreSQL backend
}

// result is the median of each phase over the runs, and what persistence
// wrote for the create: the bytes the process tree wrote to storage on the
// local backend, the write-ahead log the database wrote on PostgreSQL.
type result struct {
	phases    [numPhases]sample
	stateSize int64
	runs      int
}

// measure runs the row's stack through its whole life runs times, each from
// an empty CAIRN_HOME.
func (b *bench) measure(r row) (result, error) {
	var all [numPhases][]sample
	var res result
	for i := range b.runs(r) {
		dir, err := os.MkdirTemp(b.work, "stack-")
		if err != nil {
			return res, err
		}
		samples, size, err := b.life(r, dir)
		os.RemoveAll(dir)
		if err != nil {
			return res, err
		}
		for p, s := range samples {
			all[p] = append(all[p], s)
		}
		res.stateSize = size
		b.logf("  run %d: %s", i+1, describe(samples))
	}
	for p := range all {
		res.phases[p] = median(all[p])
	}
	res.runs = len(all[0])
	return res, nil
}

// life creates the stack, previews and updates it with no change, refreshes
// it, changes 1% of its resources and destroys it.
func (b *bench) life(r row, dir string) ([numPhases]sample, int64, error) {
	var out [numPhases]sample
	run := runner{cairn: b.cairn, dir: filepath.Join(dir, "project"), home: filepath.Join(dir, "home")}
	switch r.variant {
	case variantGRPC:
		run.env = append(run.env, "CAIRN_ISOLATE_PROVIDERS=random")
	case variantPulumiOptIn:
		run.env = append(run.env, "CAIRN_FAST_PATH=random")
	}
	if r.latency > 0 {
		run.env = append(run.env, "CAIRN_BENCH_LATENCY="+r.latency.String())
	}
	var db *database
	if r.postgres {
		var err error
		if db, err = b.database(); err != nil {
			return out, 0, err
		}
		defer db.close()
		run.env = append(run.env, "CAIRN_BACKEND_URL="+db.url)
	}
	destroy := []string{"destroy", "--stack", "dev", "--yes", "--non-interactive"}
	if r.parallel > 0 {
		destroy = append(destroy, "--parallel", strconv.Itoa(r.parallel))
	}
	up := append([]string{"up"}, destroy[1:]...)
	if r.latency > 0 {
		up = append(up, "--skip-preview") // a preview would double the sleeps
	}
	st := r.stack
	if err := st.write(run.dir); err != nil {
		return out, 0, err
	}
	steps := [numPhases][]string{
		phaseUp:         up,
		phasePreview:    {"preview", "--stack", "dev", "--non-interactive", "--expect-no-changes"},
		phaseNoChangeUp: append(slices.Clip(up), "--expect-no-changes"),
		phaseRefresh:    append([]string{"refresh"}, destroy[1:]...),
		phaseUpdate:     up,
		phaseDestroy:    destroy,
	}
	if _, err := run.run("stack", "init", "dev", "--non-interactive"); err != nil {
		return out, 0, err
	}
	var size int64
	for p, args := range steps {
		if p == phaseUpdate {
			st.changed = (st.n + 99) / 100
			if err := st.write(run.dir); err != nil {
				return out, 0, err
			}
		}
		var wal int64
		if db != nil && p == phaseUp {
			var err error
			if wal, err = db.walPosition(); err != nil {
				return out, 0, err
			}
		}
		s, err := run.run(args...)
		if err != nil {
			return out, 0, fmt.Errorf("%s: %w", phaseNames[p], err)
		}
		out[p] = s
		switch {
		case p != phaseUp:
		case db != nil:
			end, err := db.walPosition()
			if err == nil {
				size, err = db.stateSize()
			}
			if err != nil {
				return out, 0, fmt.Errorf("the state after the create: %w", err)
			}
			out[p].written = end - wal
		default:
			info, err := os.Stat(filepath.Join(run.home, "state", ".pulumi", "stacks", project, "dev.json"))
			if err != nil {
				return out, 0, fmt.Errorf("the state after the create: %w", err)
			}
			size = info.Size()
		}
	}
	return out, size, nil
}

// median returns the sample of median wall time, and the median peak RSS.
func median(s []sample) sample {
	byWall := slices.SortedFunc(slices.Values(s), func(a, b sample) int { return int(a.wall - b.wall) })
	m := byWall[len(s)/2]
	rss := make([]int64, len(s))
	for i, x := range s {
		rss[i] = x.maxRSS
	}
	slices.Sort(rss)
	m.maxRSS = rss[len(rss)/2]
	return m
}

func describe(s [numPhases]sample) string {
	var out string
	for p, x := range s {
		out += fmt.Sprintf("%s %s; ", phaseNames[p], x.wall.Round(time.Millisecond))
	}
	return out
}
