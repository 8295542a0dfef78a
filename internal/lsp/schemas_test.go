package lsp

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// TestSchemasOfNoPackage checks that the package of a type that is none
// (the HCL loader asks for the package "" of a label it could not
// resolve) is not looked for, nor reported missing.
func TestSchemasOfNoPackage(t *testing.T) {
	src := host.NewCachedSchemas(host.CachedSchemasOptions{Builtins: provider.Factories{random.Factory()}})
	var loads []string
	s := newSchemas(context.Background(), src, "", func(pkg string) { loads = append(loads, pkg) })
	if p, err := s.source(context.Background(), "").Schema(context.Background(), "", ""); p != nil || err != nil {
		t.Errorf("the schema of package \"\": %v, %v", p, err)
	}
	if p := s.peek(""); p != nil || len(s.entries) > 0 || len(loads) > 0 {
		t.Errorf("package \"\" was looked for: %v", loads)
	}
	if p, err := s.source(context.Background(), "").Schema(context.Background(), "random", ""); p == nil || err != nil {
		t.Errorf("the schema of random: %v, %v", p, err)
	}
}
