package main

import (
	"slices"
	"time"
)

// plan is what to measure.
type plan struct {
	sizes, chains []int
	langs         []string
	latencyN      int
	latency       time.Duration
	parallel      []int
	previews      []int // sizes of the new YAML stacks whose preview is measured
	// postgres are the sizes of the independent YAML stacks also measured
	// on the PostgreSQL backend.
	postgres []int
	// s3 are the sizes of the independent YAML stacks also measured on
	// the bucket backend, on S3.
	s3 []int
	// pulumiDIY are the sizes of the S3 stacks also taken through by
	// Pulumi's CLI on its DIY backend (b.pulumiDIY).
	pulumiDIY []int
	// pulumiRandom are the sizes of the independent YAML stacks of Pulumi's
	// random provider plugin (b.pulumiRandom).
	pulumiRandom []int
	// secrets are the sizes of the independent YAML stacks whose results
	// are secrets (variantSecretOutputs).
	secrets []int
	// typescript are the sizes of the independent TypeScript stacks, run by
	// Cairn's Node.js language host.
	typescript []int
	// nulls are the sizes of the stacks of null_resource, taken through
	// by cairn and by each of b.tools.
	nulls []int
	// nullChains are the sizes of the stacks of null_resource chained
	// through their triggers, taken through likewise.
	nullChains []int
	// floors has the floors of the stacks of null_resource measured.
	floors bool
}

// rows lists the table's rows: the independent stacks in every language
// and provider variant, the chains in process, the independent YAML stacks
// of Pulumi's random plugin (by default, and opted into the fast path) and
// of secret results in process, in
// TypeScript, the stacks of null_resource by cairn and by each Terraform
// tool, the independent YAML stacks on PostgreSQL and on S3, and the
// latency stack at each parallelism.
func (b *bench) rows(p plan) []row {
	var rows []row
	for _, n := range p.sizes {
		for _, lang := range p.langs {
			for _, v := range []string{variantInProcess, variantGRPC} {
				rows = append(rows, row{stack: stack{shape: wide, n: n, lang: lang}, variant: v})
			}
		}
	}
	for _, n := range p.chains {
		for _, lang := range p.langs {
			rows = append(rows, row{stack: stack{shape: chain, n: n, lang: lang}, variant: variantInProcess})
		}
	}
	for _, n := range p.pulumiRandom {
		for _, v := range []string{variantPulumi, variantPulumiOptIn} {
			rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "yaml", plugin: b.pulumiRandom}, variant: v})
		}
	}
	for _, n := range p.secrets {
		rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "yaml", secretOutputs: true}, variant: variantSecretOutputs})
	}
	for _, n := range p.typescript {
		rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "typescript", plugin: b.nodeModules}, variant: variantInProcess})
	}
	var nullStacks []stack
	for _, n := range p.nulls {
		nullStacks = append(nullStacks, stack{shape: nulls, n: n, lang: "hcl"})
	}
	for _, n := range p.nullChains {
		nullStacks = append(nullStacks, stack{shape: nullChain, n: n, lang: "hcl"})
	}
	for _, st := range nullStacks {
		rows = append(rows, row{stack: st, variant: variantTerraform}, row{stack: st, variant: variantTerraformOptIn})
		for _, t := range b.tools {
			tf := st
			tf.terraform = true
			rows = append(rows, row{stack: tf, variant: "Terraform provider, by " + t.label, tool: &t})
		}
	}
	for _, n := range p.postgres {
		rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "yaml"}, variant: variantInProcess, postgres: true})
	}
	for _, n := range p.s3 {
		rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "yaml"}, variant: variantInProcess, s3: true})
	}
	for _, n := range p.pulumiDIY {
		if !slices.Contains(p.s3, n) {
			rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "yaml"}, variant: variantInProcess, s3: true})
		}
		rows = append(rows, row{stack: stack{shape: wide, n: n, lang: "yaml"}, variant: b.pulumiDIY.label, s3: true, pulumi: true})
	}
	for _, par := range p.parallel {
		rows = append(rows, row{stack: stack{shape: slow, n: p.latencyN, lang: "yaml", plugin: b.latency},
			variant: variantBinary, parallel: par, latency: p.latency})
	}
	return rows
}

func upper(lang string) string {
	switch lang {
	case "hcl":
		return "HCL"
	case "typescript":
		return "TypeScript"
	}
	return "YAML"
}
