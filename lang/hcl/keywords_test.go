package hcl_test

import (
	"slices"
	"testing"

	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// TestKeywords checks that every block of a file is documented for
// editors, with the arguments the decoder takes.
func TestKeywords(t *testing.T) {
	kw := langhcl.Keywords()
	for name, k := range kw {
		if k.Doc == "" {
			t.Errorf("block %s has no documentation", name)
		}
	}
	if !slices.Contains(kw["terraform"].Args, "required_version") || !slices.Contains(kw["import"].Args, "for_each") ||
		!slices.Contains(kw["check"].Blocks, "data") {
		t.Errorf("keywords miss arguments or blocks: %+v", kw)
	}
	if lc := langhcl.NestedKeywords()["lifecycle"]; !slices.Contains(lc.Args, "destroy") || !slices.Contains(lc.Blocks, "precondition") {
		t.Errorf("lifecycle: %+v", lc)
	}
}
