package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// shape is how a generated stack's resources depend on each other.
type shape string

const (
	wide  shape = "independent"   // no dependencies: as parallel as the engine allows
	chain shape = "chain"         // each resource depends on the previous one
	slow  shape = "latency"       // independent resources of the latency provider, in YAML only
	nulls shape = "null_resource" // independent resources of hashicorp/null, in HCL only
	// nullChain is null_resource whose triggers refer to the previous
	// one's id.
	nullChain shape = "null_resource chain"
)

// nullRequirement declares hashicorp/null, for the stacks of null_resource.
const nullRequirement = `terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "~> 3.2" }
  }
}
`

// stack describes one generated program.
type stack struct {
	shape shape
	n     int
	lang  string // "yaml", "hcl" or "typescript"
	// changed is how many resources have a new length (the 1% update): the
	// first ones of an independent stack, the last ones of a chain, so that
	// no replacement cascades beyond them.
	changed int
	// plugin is the path of the provider plugin binary the program names:
	// the latency provider's, or Pulumi's random provider's; "" for none.
	// A TypeScript stack's is the node_modules folder it runs with.
	plugin string
	// secretOutputs makes every result a secret (additionalSecretOutputs).
	secretOutputs bool
	// terraform writes the program as a Terraform configuration, main.tf,
	// for OpenTofu or Terraform.
	terraform bool
}

// project is the project name of every generated stack.
const project = "bench"

// write writes the stack's program into dir, replacing what is there.
func (s stack) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if s.lang == "typescript" {
		return s.writeTypeScript(dir, s.plugin)
	}
	var head, body strings.Builder
	fmt.Fprintf(&head, "name: %s\nruntime: %s\n", project, s.lang)
	if s.plugin != "" {
		name := "random"
		if s.shape == slow {
			name = "latency"
		}
		fmt.Fprintf(&head, "plugins:\n  providers:\n    - name: %s\n      path: %s\n", name, s.plugin)
	}
	if s.terraformProvider() {
		body.WriteString(nullRequirement)
	}
	for i := range s.n {
		switch {
		case s.shape == nullChain && i > 0:
			fmt.Fprintf(&body, "resource \"null_resource\" \"r%d\" {\n  triggers = { i = \"%d\", v = \"%d\", p = null_resource.r%d.id }\n}\n", i, i, s.length(i), i-1)
		case s.terraformProvider():
			fmt.Fprintf(&body, "resource \"null_resource\" \"r%d\" {\n  triggers = { i = \"%d\", v = \"%d\" }\n}\n", i, i, s.length(i))
		case s.lang == "hcl":
			s.hclResource(&body, i)
		default:
			s.yamlResource(&body, i)
		}
	}
	if s.terraform {
		return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(body.String()), 0o644)
	}
	if s.lang == "hcl" {
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(body.String()), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(head.String()), 0o644)
	}
	head.WriteString("resources:\n")
	head.WriteString(body.String())
	return os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(head.String()), 0o644)
}

// length is resource i's length: 8, or 9 once changed.
func (s stack) length(i int) int {
	first := i < s.changed
	if s.shape == chain || s.shape == nullChain {
		first = i >= s.n-s.changed
	}
	if first {
		return 9
	}
	return 8
}

func (s stack) yamlResource(b *strings.Builder, i int) {
	if s.shape == slow {
		fmt.Fprintf(b, "  r%d:\n    type: latency:index:Sleep\n    properties:\n      tag: v%d\n", i, s.length(i))
		return
	}
	fmt.Fprintf(b, "  r%d:\n    type: random:RandomString\n    properties:\n      length: %d\n", i, s.length(i))
	if s.shape == chain && i > 0 {
		fmt.Fprintf(b, "      keepers:\n        prev: ${r%d.result}\n", i-1)
	}
	if s.secretOutputs {
		b.WriteString("    options:\n      additionalSecretOutputs: [result]\n")
	}
}

func (s stack) hclResource(b *strings.Builder, i int) {
	fmt.Fprintf(b, "resource \"random_string\" \"r%d\" {\n  length = %d\n", i, s.length(i))
	if s.shape == chain && i > 0 {
		fmt.Fprintf(b, "  keepers = {\n    prev = random_string.r%d.result\n  }\n", i-1)
	}
	b.WriteString("}\n")
}

// terraformProvider reports whether the stack is of null_resource, the
// Terraform provider hashicorp/null's.
func (s stack) terraformProvider() bool { return s.shape == nulls || s.shape == nullChain }
