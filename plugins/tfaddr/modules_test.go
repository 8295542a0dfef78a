package tfaddr

import (
	"strings"
	"testing"
)

// TestModuleConstraints checks module versions as OpenTofu's module
// installer selects them: go-version's constraints and versions ("v"
// prefixes allowed), and a prerelease only when the constraints are
// exactly it.
func TestModuleConstraints(t *testing.T) {
	for _, tt := range []struct{ constraints, allows, refuses string }{
		{"", "1.0.0 v2.0.0 0.1", "1.0.0-beta"},
		{"~> 1.2", "1.2.0 1.9.9 v1.3.0", "2.0.0 1.1.9 1.3.0-rc.1"},
		{"~> 1.2.3", "1.2.3 1.2.9", "1.3.0"},
		{">= 1.0, < 2.0", "1.0.0 1.9.0", "2.0.0 0.9.0"},
		{"1.0.0-beta", "1.0.0-beta v1.0.0-beta", "1.0.0 1.0.0-alpha"},
		{"v1.0.0-beta", "1.0.0-beta", "1.0.0-rc.1"},
		// OpenTofu cannot read these as exactly a prerelease, so it selects none.
		{">= 0.1, 1.0.0-beta", "", "1.0.0-beta"},
		{">= 1.0.0-beta", "1.0.0 1.2.0", "1.1.0-beta"},
	} {
		cs, err := ParseModuleConstraints(tt.constraints)
		if err != nil {
			t.Errorf("%q: %v", tt.constraints, err)
			continue
		}
		for _, want := range []bool{true, false} {
			list := map[bool]string{true: tt.allows, false: tt.refuses}[want]
			for _, s := range strings.Fields(list) {
				v, err := ParseModuleVersion(s)
				if err != nil {
					t.Fatal(err)
				}
				if cs.Allows(v) != want {
					t.Errorf("%q allows %s: %v, want %v", tt.constraints, s, !want, want)
				}
			}
		}
	}
	if _, err := ParseModuleConstraints("~> x"); err == nil || !strings.Contains(err.Error(), `version constraints "~> x"`) {
		t.Errorf("~> x: %v", err)
	}
}
