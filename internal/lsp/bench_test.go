package lsp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
)

// BenchmarkEdit measures what an editor waits for after an edit of a
// program of 1,000 resources, each referring to the one before: from the
// change to its diagnostics, through the protocol, with the server's
// delay of 50 ms for further edits. Edits alternate between a misspelt
// property and its correction, so each check finds something new.
func BenchmarkEdit(b *testing.B) {
	const n = 1000
	var y, h strings.Builder
	y.WriteString("name: big\nruntime: yaml\nresources:\n")
	for i := range n {
		fmt.Fprintf(&y, "  r%d:\n    type: random:RandomString\n    properties:\n      length: 8\n", i)
		if i > 0 {
			fmt.Fprintf(&y, "      keepers:\n        previous: ${r%d.result}\n", i-1)
		}
		fmt.Fprintf(&h, "resource \"random_string\" \"r%d\" {\n  length = 8\n", i)
		if i > 0 {
			fmt.Fprintf(&h, "  keepers = { previous = random_string.r%d.result }\n", i-1)
		}
		h.WriteString("}\n\n")
	}
	for _, lang := range []struct{ name, file, text, project, typo string }{
		{"yaml", "Pulumi.yaml", y.String(), "", "length: 8"},
		{"hcl", "main.hcl", h.String(), "name: big\nruntime: hcl\n", "length = 8"},
	} {
		files := map[string]string{lang.file: lang.text}
		if lang.project != "" {
			files["Pulumi.yaml"] = lang.project
		}
		dir := project(b, files)
		path := filepath.Join(dir, lang.file)
		c := lsptest.Start(b, options())
		c.Initialize(dir)
		c.Open(path, lang.text)
		c.Version(path, 1)
		// The last resource's length is misspelt, then corrected.
		at := strings.LastIndex(lang.text, lang.typo)
		typo := lang.text[:at] + "lenght" + lang.text[at+len("length"):]
		version := 1
		b.Run(fmt.Sprintf("%s/resources=%d", lang.name, n), func(b *testing.B) {
			for b.Loop() {
				version++
				text := lang.text
				if version%2 == 0 {
					text = typo
				}
				c.Change(path, version, text)
				if ds := c.Version(path, version); (len(ds) > 0) != (version%2 == 0) {
					b.Fatalf("version %d: diagnostics %+v", version, ds)
				}
			}
		})
		c.Shutdown()
	}
}
