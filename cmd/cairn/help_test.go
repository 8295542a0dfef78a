package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestHelp runs every command with --help and checks the line of each of its
// flags: a placeholder only when the flag takes a value, one per name, and a
// default said at most once (never "false" for a boolean).
func TestHelp(t *testing.T) {
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(slices.Clone(path), c.Name)
			t.Run(strings.Join(p, "_"), func(t *testing.T) { checkHelp(t, p, c.Flags) })
			walk(p, c.Subcommands)
		}
	}
	app := newApp(nil, nil, nil)
	t.Run("cairn", func(t *testing.T) { checkHelp(t, nil, app.Flags) })
	walk(nil, app.Commands)
}

func checkHelp(t *testing.T, path []string, flags []cli.Flag) {
	var stdout, stderr bytes.Buffer
	if code := run(append(append([]string{"cairn"}, path...), "--help"), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr.String())
	}
	lines := strings.Split(stdout.String(), "\n")
	for _, f := range flags {
		name := "--" + f.Names()[0]
		if len(f.Names()[0]) == 1 {
			name = name[1:] // one letter: -v
		}
		i := slices.IndexFunc(lines, func(l string) bool {
			l = strings.TrimSpace(l)
			return strings.HasPrefix(l, name+" ") || strings.HasPrefix(l, name+",")
		})
		if i < 0 {
			t.Errorf("%s: no line of help", name)
			continue
		}
		line := strings.TrimSpace(lines[i])
		head, usage, _ := strings.Cut(line, "  ")
		var names, placeholders int
		for _, tok := range strings.Fields(strings.NewReplacer(",", " ", "[", " ", "]", " ").Replace(head)) {
			if strings.HasPrefix(tok, "-") {
				names++
			} else {
				placeholders++
			}
		}
		takesValue := f.(cli.DocGenerationFlag).TakesValue()
		switch {
		case !takesValue && placeholders > 0:
			t.Errorf("%s takes no value but shows a placeholder: %q", name, line)
		case takesValue && placeholders != names:
			t.Errorf("%s: want one placeholder per name: %q", name, line)
		}
		if strings.Count(usage, "default") > 1 {
			t.Errorf("%s says its default twice: %q", name, line)
		}
		if strings.Contains(usage, "(default: false)") {
			t.Errorf("%s says a boolean's default: %q", name, line)
		}
	}
}
