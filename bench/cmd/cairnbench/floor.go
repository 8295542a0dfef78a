package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// floorBenchmarks are plugins/tfplugin's benchmarks of the bare provider
// calls each phase of a stack of null_resource needs, by the phase they
// are the floor of: a no-change preview and a no-change up need one plan
// per resource; the 1% update has no floor.
var floorBenchmarks = map[string][]int{
	"BenchmarkNullCreateCalls":  {phaseUp},
	"BenchmarkNullPlanCalls":    {phasePreview, phaseNoChangeUp},
	"BenchmarkNullReadCalls":    {phaseRefresh},
	"BenchmarkNullDestroyCalls": {phaseDestroy},
}

// buildFloors compiles plugins/tfplugin's test binary, which measures the
// floors, into the work folder.
func (b *bench) buildFloors() error {
	b.floorTest = filepath.Join(b.work, "tfplugin.test")
	out, err := exec.Command("go", "test", "-c", "-o", b.floorTest, "./plugins/tfplugin").CombinedOutput()
	if err != nil {
		return fmt.Errorf("building the floor benchmarks (go test -c ./plugins/tfplugin; -floors=false leaves them out): %w\n%s", err, out)
	}
	return nil
}

// floors measures, once, the floor of each phase of a stack of n
// null_resource on the same provider binary: the time the bare calls of
// n resources take (the benchmark's time per resource, times n).
func (b *bench) floors(n int) ([numPhases]time.Duration, error) {
	var out [numPhases]time.Duration
	cmd := exec.Command(b.floorTest, "-test.run", "^$", "-test.bench", "^BenchmarkNull(Create|Plan|Read|Destroy)Calls$",
		"-test.benchtime", fmt.Sprintf("%dx", n), "-test.count", "1")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(b.nullProvider)+string(os.PathListSeparator)+os.Getenv("PATH"))
	text, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("the floor benchmarks: %w\n%s", err, text)
	}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		// BenchmarkNullPlanCalls-2   1000   1061548 ns/op   0.60 provider-cores   640000 provider-cpu-ns/op
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[3] != "ns/op" || f[1] != strconv.Itoa(n) {
			continue
		}
		name, _, _ := strings.Cut(f[0], "-")
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		for _, p := range floorBenchmarks[name] {
			out[p] = time.Duration(ns * float64(n))
		}
	}
	for name, phases := range floorBenchmarks {
		if out[phases[0]] == 0 {
			return out, fmt.Errorf("the floor benchmarks did not report %s:\n%s", name, text)
		}
	}
	return out, nil
}

// medianFloors is the median of each phase's floors.
func medianFloors(all [][numPhases]time.Duration) [numPhases]time.Duration {
	var out [numPhases]time.Duration
	for p := range out {
		var d []time.Duration
		for _, f := range all {
			d = append(d, f[p])
		}
		slices.Sort(d)
		out[p] = d[len(d)/2]
	}
	return out
}
