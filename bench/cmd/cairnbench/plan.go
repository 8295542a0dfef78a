package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// plan is what to measure.
type plan struct {
	sizes, chains []int
	langs         []string
	latencyN      int
	latency       time.Duration
	parallel      []int
}

// rows lists the table's rows: the independent stacks in every language
// and provider variant, the chains in process, and the latency stack at
// each parallelism. A language cairn does not run yet, or a missing latency
// provider, gives rows marked n/a.
func (b *bench) rows(p plan) []row {
	na := map[string]string{}
	for _, lang := range p.langs {
		if err := b.probe(lang); err != nil {
			na[lang] = fmt.Sprintf("n/a (%s front end not available)", upper(lang))
			b.logf("%s: %v", lang, err)
		}
	}
	var rows []row
	for _, n := range p.sizes {
		for _, lang := range p.langs {
			for _, v := range []string{variantInProcess, variantGRPC} {
				rows = append(rows, row{stack: stack{shape: wide, n: n, lang: lang}, variant: v, na: na[lang]})
			}
		}
	}
	for _, n := range p.chains {
		for _, lang := range p.langs {
			rows = append(rows, row{stack: stack{shape: chain, n: n, lang: lang}, variant: variantInProcess, na: na[lang]})
		}
	}
	missing := ""
	if _, err := os.Stat(b.latency); err != nil {
		missing = "n/a (no latency provider: go build -o bin/pulumi-resource-latency ./bench/latency)"
	}
	for _, par := range p.parallel {
		rows = append(rows, row{stack: stack{shape: slow, n: p.latencyN, lang: "yaml", latencyPlugin: b.latency},
			variant: variantBinary, parallel: par, latency: p.latency, na: missing})
	}
	return rows
}

// probe checks that cairn runs a one-resource program in lang.
func (b *bench) probe(lang string) error {
	dir, err := os.MkdirTemp(b.work, "probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	r := runner{cairn: b.cairn, dir: filepath.Join(dir, "project"), home: filepath.Join(dir, "home")}
	if err := (stack{shape: wide, n: 1, lang: lang}).write(r.dir); err != nil {
		return err
	}
	_, err = r.run("up", "--stack", "dev", "--yes", "--non-interactive")
	return err
}

func upper(lang string) string {
	if lang == "hcl" {
		return "HCL"
	}
	return "YAML"
}
