package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// previewTable measures the first preview of new YAML stacks of n
// independent resources each: what reading, checking and planning a large
// program costs with no state to compare it with.
func (b *bench) previewTable(sizes []int) (string, error) {
	lines := []string{"| scenario | N | language | preview (new stack) |", "| --- | --- | --- | --- |"}
	for _, n := range sizes {
		st := stack{shape: wide, n: n, lang: "yaml"}
		b.logf("new-stack preview of %d", n)
		var samples []sample
		for range b.runs(row{stack: st}) {
			s, err := b.newStackPreview(st)
			if err != nil {
				return "", fmt.Errorf("preview of a new stack of %d: %w", n, err)
			}
			samples = append(samples, s)
		}
		m := median(samples)
		lines = append(lines, fmt.Sprintf("| %s, new stack | %d | YAML | %s · %s |", wide, n, seconds(m.wall), mib(m.maxRSS)))
		fmt.Fprintln(os.Stderr, lines[len(lines)-1])
	}
	return strings.Join(lines, "\n"), nil
}

// newStackPreview writes the stack, inits it (not measured) and measures
// its preview.
func (b *bench) newStackPreview(st stack) (sample, error) {
	dir, err := os.MkdirTemp(b.work, "stack-")
	if err != nil {
		return sample{}, err
	}
	defer os.RemoveAll(dir)
	run := runner{bin: b.cairn, dir: filepath.Join(dir, "project"), home: filepath.Join(dir, "home")}
	if err := st.write(run.dir); err != nil {
		return sample{}, err
	}
	if _, err := run.run("stack", "init", "dev"); err != nil {
		return sample{}, err
	}
	return run.run("preview", "--stack", "dev", "--non-interactive")
}
