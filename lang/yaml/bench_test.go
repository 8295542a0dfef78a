package yaml

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoad loads projects of n resources, without schemas: the cost of
// reading and building the program, which should grow linearly with n. At
// 100,000 resources the document has 1,200,000 nodes, six times what the
// alias guard allowed when it counted every node.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		dir := b.TempDir()
		var src strings.Builder
		src.WriteString("name: bench\nruntime: yaml\nresources:\n")
		for i := range n {
			fmt.Fprintf(&src, "  r%d:\n    type: random:RandomString\n    properties:\n      length: 8\n      keepers:\n        k: \"v%d\"\n", i, i)
		}
		if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, diags := Load(dir, Options{}); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/resource")
		})
	}
}
