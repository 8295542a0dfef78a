package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v4"
)

// ciRecipeCmd runs the cairn commands of one job of a CI recipe in
// docs/ci, in order: "cirecipe FILE JOB". The lines of the job's `run:`
// (GitHub Actions) or `script:` (GitLab CI) that start with `cairn` are run
// by sh in the scenario's folder, with the recipe's plain variables (its
// top-level and the job's `env:` or `variables:`, leaving out those the CI
// system fills in) set; the other lines need the CI system. It fails if
// the job has no cairn command or one fails; negated, it stops at the first
// that fails, and fails if none does.
func ciRecipeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cirecipe FILE JOB")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci", args[0]))
	ts.Check(err)
	var doc yaml.Node
	ts.Check(yaml.Unmarshal(data, &doc))
	root := doc.Content[0]
	job := mapValue(root, args[1])
	if job == nil {
		job = mapValue(mapValue(root, "jobs"), args[1])
	}
	if job == nil {
		ts.Fatalf("%s has no job %q", args[0], args[1])
	}
	for _, vars := range []*yaml.Node{mapValue(root, "env"), mapValue(root, "variables"), mapValue(job, "env"), mapValue(job, "variables")} {
		for i := 0; vars != nil && i+1 < len(vars.Content); i += 2 {
			if v := vars.Content[i+1].Value; !strings.Contains(v, "$") {
				ts.Setenv(vars.Content[i].Value, v)
			}
		}
	}
	var lines []string
	scripts(job, &lines)
	ran := 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "cairn ") {
			continue
		}
		ts.Logf("%s %s: %s", args[0], args[1], l)
		err := ts.Exec("sh", "-c", l)
		if err != nil && neg {
			return
		}
		if err != nil {
			ts.Fatalf("%s, job %s: %s: %v\n%s", args[0], args[1], l, err, ts.ReadFile("stderr"))
		}
		ran++
	}
	switch {
	case ran == 0:
		ts.Fatalf("job %s of %s runs no cairn command", args[1], args[0])
	case neg:
		ts.Fatalf("every cairn command of job %s of %s succeeded", args[1], args[0])
	}
}

// mapValue returns the value of key in a YAML mapping, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; m != nil && m.Kind == yaml.MappingNode && i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// scripts appends the lines of every `run:` and `script:` under n, in order.
func scripts(n *yaml.Node, lines *[]string) {
	if n == nil {
		return
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 1 {
			if k := n.Content[i-1].Value; k == "run" || k == "script" {
				collect(c, lines)
				continue
			}
		}
		scripts(c, lines)
	}
}

// collect appends the lines of a scalar, or of each scalar of a sequence.
func collect(n *yaml.Node, lines *[]string) {
	if n.Kind == yaml.ScalarNode {
		*lines = append(*lines, strings.Split(n.Value, "\n")...)
		return
	}
	for _, c := range n.Content {
		collect(c, lines)
	}
}
