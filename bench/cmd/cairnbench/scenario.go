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
	variant  string // "in-process", "gRPC plugin", "plugin binary", or the CLI of a Terraform provider row
	parallel int    // --parallel, 0 for cairn's default
	latency  time.Duration
	postgres bool  // on the PostgreSQL backend
	s3       bool  // on the bucket backend, on S3 (VersityGW on the loopback)
	tool     *tool // run by OpenTofu or Terraform instead of cairn
	pulumi   bool  // run by Pulumi's CLI (b.pulumiDIY) instead of cairn
}

// result is the median of each phase over the runs, and what persistence
// wrote for the create: the bytes the process tree wrote to storage on the
// local backend, the write-ahead log the database wrote on PostgreSQL.
type result struct {
	phases [numPhases]sample
	// floors are the median floors of the phases of a stack of
	// null_resource run by cairn, measured after each run (see floors);
	// zero where there is none.
	floors    [numPhases]time.Duration
	stateSize int64
	runs      int
}

// measure runs the row's stack through its whole life runs times, each from
// an empty CAIRN_HOME.
func (b *bench) measure(r row) (result, error) {
	var all [numPhases][]sample
	var floors [][numPhases]time.Duration
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
		if r.stack.shape == nulls && r.tool == nil && b.floorTest != "" {
			f, err := b.floors(r.stack.n)
			if err != nil {
				return res, err
			}
			floors = append(floors, f)
		}
	}
	if len(floors) > 0 {
		res.floors = medianFloors(floors)
	}
	for p := range all {
		res.phases[p] = median(all[p])
	}
	res.runs = len(all[0])
	return res, nil
}

// driver is how a row's stack is taken through its life: the program
// run, what it is given, and the arguments of each phase.
type driver struct {
	bin   string
	env   []string // added to the environment
	setup []string // the unmeasured first command, in the stack's folder
	steps [numPhases][]string
	// state is the local state file, relative to the run's folder.
	state string
}

// cairnDriver takes a stack through its life with cairn.
func (b *bench) cairnDriver(r row) driver {
	d := driver{bin: b.cairn, setup: []string{"stack", "init", "dev", "--non-interactive"},
		state: filepath.Join("home", "state", ".pulumi", "stacks", project, "dev.json")}
	switch r.variant {
	case variantGRPC:
		d.env = append(d.env, "CAIRN_ISOLATE_PROVIDERS=random")
	case variantPulumiOptIn:
		d.env = append(d.env, "CAIRN_FAST_PATH=random")
	case variantTerraformOptIn:
		d.env = append(d.env, "CAIRN_FAST_PATH=null")
	}
	if r.latency > 0 {
		d.env = append(d.env, "CAIRN_BENCH_LATENCY="+r.latency.String())
	}
	if r.stack.terraformProvider() {
		d.env = append(d.env, "TF_CLI_CONFIG_FILE="+b.tfConfig)
	}
	destroy := []string{"destroy", "--stack", "dev", "--yes", "--non-interactive"}
	if r.parallel > 0 {
		destroy = append(destroy, "--parallel", strconv.Itoa(r.parallel))
	}
	up := append([]string{"up"}, destroy[1:]...)
	if r.latency > 0 {
		up = append(up, "--skip-preview") // a preview would double the sleeps
	}
	d.steps = [numPhases][]string{
		phaseUp:         up,
		phasePreview:    {"preview", "--stack", "dev", "--non-interactive", "--expect-no-changes"},
		phaseNoChangeUp: append(slices.Clip(up), "--expect-no-changes"),
		phaseRefresh:    append([]string{"refresh"}, destroy[1:]...),
		phaseUpdate:     up,
		phaseDestroy:    destroy,
	}
	return d
}

// life creates the stack, previews and updates it with no change, refreshes
// it, changes 1% of its resources and destroys it.
func (b *bench) life(r row, dir string) ([numPhases]sample, int64, error) {
	var out [numPhases]sample
	d := b.cairnDriver(r)
	if r.tool != nil {
		d = b.toolDriver(*r.tool)
	}
	if r.pulumi {
		d = b.pulumiDriver(*b.pulumiDIY, filepath.Join(dir, "home"))
	}
	run := runner{bin: d.bin, dir: filepath.Join(dir, "project"), home: filepath.Join(dir, "home"), env: d.env}
	var db *database
	if r.postgres {
		var err error
		if db, err = b.database(); err != nil {
			return out, 0, err
		}
		defer db.close()
		run.env = append(run.env, "CAIRN_BACKEND_URL="+db.url)
	}
	var stateSize func() (int64, error)
	if r.s3 {
		st, err := b.s3.NewBucket()
		if err != nil {
			return out, 0, err
		}
		run.env = append(append(run.env, st.Env...), "CAIRN_BACKEND_URL="+st.URL, "PULUMI_BACKEND_URL="+st.URL)
		stateSize = func() (int64, error) { return objectSize(st, ".pulumi/stacks/"+project+"/dev.json") }
	}
	st := r.stack
	if err := st.write(run.dir); err != nil {
		return out, 0, err
	}
	if _, err := run.run(d.setup...); err != nil {
		return out, 0, err
	}
	var size int64
	for p, args := range d.steps {
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
		case stateSize != nil:
			var err error
			if size, err = stateSize(); err != nil {
				return out, 0, fmt.Errorf("the state after the create: %w", err)
			}
		default:
			info, err := os.Stat(filepath.Join(dir, d.state))
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
