// Command cairnbench measures the cairn binary at scale, whole process: it
// generates stacks of N resources (independent, chained, of the latency
// provider, of Pulumi's own random provider plugin when
// pulumi-resource-random is on PATH, in TypeScript when node and the pinned
// npm packages of testdata/nodejs are there, or null_resource of the
// Terraform provider hashicorp/null when terraform-provider-null is on
// PATH), takes each through create, no-change preview, no-change up,
// refresh, an update of 1% of its resources and destroy, from an empty
// CAIRN_HOME (or a new database of a PostgreSQL server it starts, for the
// PostgreSQL rows), and prints one markdown table of the median wall time
// and peak RSS of each phase; then a table of the first preview of a new
// YAML stack of 100,000 resources (-preview-n). The stacks of
// null_resource are also taken through the same phases by OpenTofu (tofu)
// and Terraform (terraform) when they are on PATH, on the same provider
// binary, and the table is followed by how many times longer each took
// than cairn; cairn's cells of them show the floor of the phase, the bare
// provider calls it needs (plugins/tfplugin's BenchmarkNull*Calls, run
// after each run), and the ratio to it. -null-chain-n adds stacks of
// null_resource chained through their triggers. The stacks on S3 of
// -pulumi-diy-n are also taken through by Pulumi's CLI on its DIY backend,
// on the same server, when pulumi is on PATH (or -pulumi).
//
//	go build -o bin/cairn ./cmd/cairn
//	go build -o bin/pulumi-resource-latency ./bench/latency
//	go run ./bench/cmd/cairnbench            # the full run (make bench)
//	BENCH_QUICK=1 go run ./bench/cmd/cairnbench
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/objtest"
	"github.com/cairn-iac/cairn/internal/pgtest"
)

// The provider variants of the random provider.
const (
	variantInProcess = "in-process"
	variantGRPC      = "gRPC plugin"
	variantBinary    = "plugin binary"
	variantPulumi    = "Pulumi's plugin"
	// variantPulumiOptIn is Pulumi's plugin opted into the fast path
	// (CAIRN_FAST_PATH=random), which by default does not trust it.
	variantPulumiOptIn = "Pulumi's plugin, opted in"
	// variantTerraform is cairn running a Terraform provider's binary;
	// variantTerraformOptIn, opted into the fast path (CAIRN_FAST_PATH=null),
	// which by default does not trust a Terraform provider either.
	// variantSecretOutputs is the built-in provider, in process, with every
	// result a secret (additionalSecretOutputs), standing in for Pulumi's
	// plugin, whose every RandomString keeps a secret in its outputs.
	variantSecretOutputs  = "in-process, secret outputs"
	variantTerraform      = "Terraform provider, by Cairn"
	variantTerraformOptIn = "Terraform provider, by Cairn, opted in"
)

// bench is one benchmark run's settings.
type bench struct {
	cairn   string
	latency string // the latency provider binary
	// pulumiRandom is Pulumi's pulumi-resource-random binary; "" for none.
	pulumiRandom string
	work         string // where stacks and homes are made
	nRuns        int
	bigRuns      int // runs of stacks of 10,000 resources or more
	verbose      bool
	// nodeModules is the absolute path of the npm packages TypeScript
	// stacks run with; "" when they or node are missing.
	nodeModules string
	// pg is the PostgreSQL server of the PostgreSQL rows.
	pg *pgtest.Server
	// s3 is the S3 server (VersityGW) of the S3 rows.
	s3 *objtest.Server
	// pulumiBin is Pulumi's CLI, and pulumiDIY how the Pulumi DIY rows
	// run it; nil for none.
	pulumiBin string
	pulumiDIY *pulumiDIY
	// nullProvider is hashicorp/null's binary, filed as version
	// nullVersion in a filesystem mirror that the CLI configuration
	// tfConfig names; "" for none.
	nullProvider, nullVersion, tfConfig string
	// tools are the Terraform tools found, measured beside cairn.
	tools []tool
	// floorTest is plugins/tfplugin's test binary, which measures the
	// floors of the stacks of null_resource; "" for none.
	floorTest string
}

func main() {
	b := &bench{}
	quick := os.Getenv("BENCH_QUICK") != ""
	flag.StringVar(&b.cairn, "cairn", "bin/cairn", "the cairn binary to measure")
	flag.StringVar(&b.latency, "latency-plugin", "bin/pulumi-resource-latency", "the latency provider binary")
	flag.IntVar(&b.nRuns, "runs", pick(quick, 1, 3), "runs of each stack; the table shows medians")
	flag.IntVar(&b.bigRuns, "big-runs", pick(quick, 1, 3), "runs of stacks of 10,000 resources or more")
	sizes := flag.String("n", pick(quick, "100,1000", "100,1000,10000"), "sizes of the independent stacks")
	chains := flag.String("chain-n", pick(quick, "100", "100,1000"), "sizes of the chain stacks")
	langs := flag.String("lang", "yaml,hcl", "languages of the programs")
	latencyN := flag.Int("latency-n", 1000, "resources of the latency stack")
	latency := flag.Duration("latency", 100*time.Millisecond, "how long each latency provider operation sleeps")
	parallel := flag.String("parallel", pick(quick, "64", "16,64"), "--parallel values of the latency stack")
	pgSizes := flag.String("postgres-n", pick(quick, "1000", "1000,10000"), "sizes of the independent YAML stacks on PostgreSQL (\"\" for none)")
	s3Sizes := flag.String("s3-n", "1000", "sizes of the independent YAML stacks on S3, served by VersityGW on the loopback (\"\" for none)")
	flag.StringVar(&b.pulumiBin, "pulumi", lookPath("pulumi"), "Pulumi's CLI, with pulumi-language-yaml beside it (default: pulumi on PATH)")
	diySizes := flag.String("pulumi-diy-n", "100", "sizes of the independent YAML stacks on S3 also taken through by Pulumi's CLI on its DIY backend (\"\" for none)")
	previews := flag.String("preview-n", pick(quick, "", "100000"), "sizes of the new YAML stacks whose first preview is measured")
	flag.StringVar(&b.pulumiRandom, "pulumi-random", lookPath("pulumi-resource-random"), "Pulumi's random provider plugin (default: pulumi-resource-random on PATH)")
	pulumiSizes := flag.String("pulumi-random-n", pick(quick, "1000", "1000,10000"), "sizes of the independent YAML stacks of Pulumi's random provider plugin")
	secretSizes := flag.String("secrets-n", "1000", "sizes of the independent YAML stacks whose results are secrets, in process (\"\" for none)")
	tsSizes := flag.String("typescript-n", "100", "sizes of the independent TypeScript stacks, run by Cairn's Node.js host (\"\" for none)")
	flag.StringVar(&b.nullProvider, "null-provider", lookPath("terraform-provider-null"), "hashicorp/null's provider binary (default: terraform-provider-null on PATH)")
	flag.StringVar(&b.nullVersion, "null-version", "3.3.1", "the version the null provider binary is filed as")
	nullSizes := flag.String("null-n", "1000", "sizes of the stacks of null_resource (\"\" for none)")
	nullChainSizes := flag.String("null-chain-n", "", "sizes of the stacks of null_resource chained through their triggers (\"\" for none)")
	floors := flag.Bool("floors", true, "measure the floors of the stacks of null_resource after each run (go test -c ./plugins/tfplugin)")
	tofu := flag.String("tofu", lookPath("tofu"), "OpenTofu's binary, measured on the stacks of null_resource (default: tofu on PATH)")
	terraform := flag.String("terraform", lookPath("terraform"), "Terraform's binary, measured on the stacks of null_resource (default: terraform on PATH)")
	flag.BoolVar(&b.verbose, "v", false, "log each run to stderr")
	flag.Parse()

	p := plan{langs: strings.Split(*langs, ","), latencyN: *latencyN, latency: *latency, floors: *floors}
	err := errors.Join(ints(&p.sizes, "-n", *sizes), ints(&p.chains, "-chain-n", *chains), ints(&p.parallel, "-parallel", *parallel),
		ints(&p.previews, "-preview-n", *previews))
	switch {
	case b.pulumiRandom == "" && *pulumiSizes != "":
		fmt.Fprintln(os.Stderr, "SKIPPED: pulumi-resource-random is not on PATH (or -pulumi-random), so the rows of Pulumi's random provider plugin are left out")
	case *pulumiSizes != "":
		err = errors.Join(err, ints(&p.pulumiRandom, "-pulumi-random-n", *pulumiSizes))
	}
	b.nodeModules, _ = filepath.Abs(nodeModules)
	if _, nerr := os.Stat(filepath.Join(b.nodeModules, "@pulumi", "pulumi")); nerr != nil || lookPath("node") == "" {
		b.nodeModules = ""
	}
	switch {
	case b.nodeModules == "" && *tsSizes != "":
		fmt.Fprintf(os.Stderr, "SKIPPED: node is not on PATH or %s is missing (make nodejs-deps), so the TypeScript rows are left out\n", nodeModules)
	case *tsSizes != "":
		err = errors.Join(err, ints(&p.typescript, "-typescript-n", *tsSizes))
	}
	if *secretSizes != "" {
		err = errors.Join(err, ints(&p.secrets, "-secrets-n", *secretSizes))
	}
	if *pgSizes != "" {
		err = errors.Join(err, ints(&p.postgres, "-postgres-n", *pgSizes))
	}
	switch {
	case *s3Sizes != "" && lookPath("versitygw") == "":
		fmt.Fprintln(os.Stderr, "SKIPPED: versitygw is not on PATH (.ci/objstore installs it), so the rows on S3 are left out")
	case *s3Sizes != "":
		err = errors.Join(err, ints(&p.s3, "-s3-n", *s3Sizes))
	}
	switch {
	case *diySizes != "" && (b.pulumiBin == "" || lookPath("versitygw") == ""):
		fmt.Fprintln(os.Stderr, "SKIPPED: pulumi (or -pulumi) or versitygw is not on PATH, so the rows of Pulumi's DIY backend on S3 are left out")
	case *diySizes != "":
		err = errors.Join(err, ints(&p.pulumiDIY, "-pulumi-diy-n", *diySizes))
	}
	if *nullSizes+*nullChainSizes != "" && b.nullProvider == "" {
		fmt.Fprintln(os.Stderr, "SKIPPED: terraform-provider-null is not on PATH (or -null-provider), so the rows of hashicorp/null (Cairn, OpenTofu, Terraform) are left out")
	} else if *nullSizes+*nullChainSizes != "" {
		err = errors.Join(err, ints(&p.nulls, "-null-n", *nullSizes), ints(&p.nullChains, "-null-chain-n", *nullChainSizes),
			b.findTools(map[string]string{"OpenTofu": *tofu, "Terraform": *terraform}))
	}
	if err == nil {
		err = b.main(p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cairnbench:", err)
		os.Exit(1)
	}
}

func (b *bench) main(p plan) error {
	var err error
	if b.cairn, err = filepath.Abs(b.cairn); err != nil {
		return err
	}
	if b.latency, err = filepath.Abs(b.latency); err != nil {
		return err
	}
	if _, err := os.Stat(b.latency); err != nil && len(p.parallel) > 0 {
		return fmt.Errorf("the latency provider: %w (go build -o bin/pulumi-resource-latency ./bench/latency)", err)
	}
	if b.work, err = os.MkdirTemp("", "cairnbench-"); err != nil {
		return err
	}
	defer os.RemoveAll(b.work)
	if len(p.nulls)+len(p.nullChains) > 0 {
		if err := b.nullMirror(); err != nil {
			return fmt.Errorf("the null provider: %w", err)
		}
		if p.floors && len(p.nulls) > 0 {
			if err := b.buildFloors(); err != nil {
				return err
			}
		}
	}
	if len(p.postgres) > 0 {
		if b.pg, err = pgtest.Start(pgtest.Options{Durable: true}); err != nil {
			return fmt.Errorf("the PostgreSQL rows (-postgres-n \"\" leaves them out): %w", err)
		}
		defer b.pg.Stop()
	}
	if len(p.pulumiDIY) > 0 {
		if b.pulumiDIY, err = newPulumiDIY(b.pulumiBin, b.cairn, b.work); err != nil {
			return fmt.Errorf("the rows of Pulumi's DIY backend (-pulumi-diy-n \"\" leaves them out): %w", err)
		}
	}
	if len(p.s3)+len(p.pulumiDIY) > 0 {
		if b.s3, err = objtest.StartS3(); err != nil {
			return fmt.Errorf("the S3 rows (-s3-n \"\" leaves them out; .ci/objstore installs versitygw): %w", err)
		}
		defer b.s3.Close()
	}
	start := time.Now()
	rows := b.rows(p)
	var lines []string
	var results []result
	for _, r := range rows {
		b.logf("%s", r.label())
		line, res, err := b.line(r)
		if err != nil {
			return err
		}
		lines, results = append(lines, line), append(results, res)
		fmt.Fprintln(os.Stderr, line)
	}
	previews, err := b.previewTable(p.previews)
	if err != nil {
		return err
	}
	fmt.Println(header())
	for _, l := range lines {
		fmt.Println(l)
	}
	if c := comparison(rows, results); c != "" {
		fmt.Printf("\n%s\n", c)
	}
	if len(p.previews) > 0 {
		fmt.Printf("\n%s\n", previews)
	}
	fmt.Printf("\nMedians of %d runs (%d for 10,000 resources); the whole run took %s.\n", b.nRuns, b.bigRuns, time.Since(start).Round(time.Second))
	return nil
}

// runs is how many times a row is measured.
func (b *bench) runs(r row) int {
	if r.stack.n >= 10_000 {
		return b.bigRuns
	}
	return b.nRuns
}

func (b *bench) logf(format string, args ...any) {
	if b.verbose {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

func pick[T any](quick bool, q, full T) T {
	if quick {
		return q
	}
	return full
}

// ints parses the comma-separated integers of a flag into dst; "" is none.
func ints(dst *[]int, flag, s string) error {
	if s == "" {
		return nil
	}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%s %q: want comma-separated integers", flag, s)
		}
		*dst = append(*dst, n)
	}
	return nil
}

// findTools keeps the Terraform tools of bins (by name) that are there,
// saying which are not.
func (b *bench) findTools(bins map[string]string) error {
	for _, name := range []string{"OpenTofu", "Terraform"} {
		if bins[name] == "" {
			fmt.Fprintf(os.Stderr, "SKIPPED: %s is not on PATH (or -%s), so its rows of hashicorp/null are left out\n", name, strings.ToLower(name))
			continue
		}
		t, err := newTool(name, bins[name])
		if err != nil {
			return err
		}
		b.tools = append(b.tools, *t)
	}
	return nil
}

// lookPath returns the absolute path of a program on PATH, or "".
func lookPath(name string) string {
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	abs, _ := filepath.Abs(path)
	return abs
}
