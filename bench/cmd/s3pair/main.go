// Command s3pair measures the create, no-change preview and destroy of an
// independent YAML stack of random strings on the local file backend and on
// S3 (VersityGW on the loopback, which it starts), alternating the two
// within each run so that both see the same load on a shared machine, and
// prints the medians and their ratio. versitygw must be on PATH
// (.ci/objstore installs it).
//
//	go build -o bin/cairn ./cmd/cairn
//	go run ./bench/cmd/s3pair -n 1000 -runs 3
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/objtest"
)

var phases = []string{"create", "preview (no change)", "destroy"}

func main() {
	n := flag.Int("n", 1000, "resources of the stack")
	runs := flag.Int("runs", 3, "runs of each backend; medians are printed")
	bin := flag.String("cairn", "bin/cairn", "the cairn binary to measure")
	flag.Parse()
	if err := run(*bin, *n, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "s3pair:", err)
		os.Exit(1)
	}
}

func run(bin string, n, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	srv, err := objtest.StartS3()
	if err != nil {
		return err
	}
	defer srv.Close()
	work, err := os.MkdirTemp("", "s3pair-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var program strings.Builder
	program.WriteString("name: bench\nruntime: yaml\nresources:\n")
	for i := range n {
		fmt.Fprintf(&program, "  r%d:\n    type: random:RandomString\n    properties:\n      length: 8\n", i)
	}
	times := map[string][]time.Duration{}
	for r := range runs {
		for _, kind := range []string{"file", "s3"} {
			dir := filepath.Join(work, fmt.Sprint(kind, r))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(program.String()), 0o644); err != nil {
				return err
			}
			env := append(os.Environ(), "CAIRN_HOME="+filepath.Join(dir, "home"), "CAIRN_CONFIG_PASSPHRASE=bench", "CAIRN_BACKEND_URL=", "PULUMI_BACKEND_URL=")
			if kind == "s3" {
				st, err := srv.NewBucket()
				if err != nil {
					return err
				}
				env = append(append(env, st.Env...), "CAIRN_BACKEND_URL="+st.URL)
			}
			cairn := func(args ...string) (time.Duration, error) {
				cmd := exec.Command(bin, args...)
				cmd.Dir, cmd.Env = dir, env
				start := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					return 0, fmt.Errorf("cairn %s on %s: %w\n%s", strings.Join(args, " "), kind, err, out)
				}
				return time.Since(start), nil
			}
			if _, err := cairn("stack", "init", "dev", "--non-interactive"); err != nil {
				return err
			}
			for i, args := range [][]string{
				{"up", "--stack", "dev", "--yes", "--non-interactive"},
				{"preview", "--stack", "dev", "--non-interactive", "--expect-no-changes"},
				{"destroy", "--stack", "dev", "--yes", "--non-interactive"},
			} {
				d, err := cairn(args...)
				if err != nil {
					return err
				}
				key := kind + " " + phases[i]
				times[key] = append(times[key], d)
				fmt.Fprintf(os.Stderr, "run %d: %s %s\n", r+1, key, d.Round(time.Millisecond))
			}
		}
	}
	median := func(key string) time.Duration {
		s := slices.Sorted(slices.Values(times[key]))
		return s[len(s)/2]
	}
	fmt.Printf("| phase (%d resources, medians of %d) | file | S3 (VersityGW) | S3 / file |\n| --- | --- | --- | --- |\n", n, runs)
	for _, p := range phases {
		f, s := median("file "+p), median("s3 "+p)
		fmt.Printf("| %s | %.2f s | %.2f s | %.2f× |\n", p, f.Seconds(), s.Seconds(), float64(s)/float64(f))
	}
	return nil
}
