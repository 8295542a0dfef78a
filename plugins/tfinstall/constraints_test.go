package tfinstall

import (
	"context"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, s := range []string{"1.2.3", "0.0.0", "10.20.30-beta.1", "1.0.0+build.5", "1.0.0-rc.1+b7"} {
		v, err := ParseVersion(s)
		if err != nil || v.String() != s {
			t.Errorf("ParseVersion(%q) = %v, %v", s, v, err)
		}
	}
	for s, want := range map[string]string{
		"1.2":       "needs three numbers",
		"v1.2.3":    `without the "v"`,
		"1.2.3.4":   "more than three numbers",
		"1.x.3":     `"x" is not a number`,
		"1.2.3-":    "empty identifier",
		"1.2.3-b_1": `holds '_'`,
		"":          "is not a number",
	} {
		if _, err := ParseVersion(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseVersion(%q): %v, want an error saying %q", s, err, want)
		}
	}
}

func TestVersionCompare(t *testing.T) {
	// In ascending order, as semantic versioning orders them.
	ordered := []string{"1.0.0-1", "1.0.0-2", "1.0.0-10", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "1.10.0", "2.0.0"}
	for i := range ordered {
		for j := range ordered {
			a, b := mustVersion(t, ordered[i]), mustVersion(t, ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%s vs %s: %d, want %d", a, b, got, want)
			}
		}
	}
	if mustVersion(t, "1.0.0+a").Compare(mustVersion(t, "1.0.0+b")) != 0 {
		t.Error("build metadata counted")
	}
}

func TestConstraints(t *testing.T) {
	tests := []struct {
		constraints string
		canonical   string
		allows      string // space-separated
		refuses     string
	}{
		{"", "", "0.0.1 1.0.0 99.0.0", "1.0.0-beta"},
		{"1.2.3", "1.2.3", "1.2.3", "1.2.4 1.2.2"},
		{"= 1.2.3", "1.2.3", "1.2.3", "1.2.4"},
		{"=1.2", "1.2.0", "1.2.0", "1.2.1"},
		{"!= 1.2.3", "!= 1.2.3", "1.2.2 1.2.4", "1.2.3"},
		{"> 1.2.3", "> 1.2.3", "1.2.4 2.0.0", "1.2.3 1.0.0"},
		{">= 1.2", ">= 1.2.0", "1.2.0 3.0.0", "1.1.9"},
		{"> 1", "> 1.0.0", "1.0.1", "1.0.0"},
		{"< 2", "< 2.0.0", "1.99.99", "2.0.0 2.0.0-beta"},
		{"<= 1.2.3", "<= 1.2.3", "1.2.3 0.1.0", "1.2.4"},
		{"~> 1.2.3", "~> 1.2.3", "1.2.3 1.2.99", "1.3.0 1.2.2"},
		{"~> 1.2", "~> 1.2", "1.2.0 1.9.0", "2.0.0 1.1.9"},
		{"~> 1", "~> 1.0", "1.0.0 1.9.9", "2.0.0 0.9.0"},
		{"~> 3.2, != 3.2.1", "~> 3.2, != 3.2.1", "3.2.0 3.2.2 3.9.0", "3.2.1 4.0.0"},
		{"!= 3.2.1, ~> 3.2", "~> 3.2, != 3.2.1", "3.2.0", "3.2.1"},
		{"< 2.0.0, >= 1.0.0, >= 1.0", ">= 1.0.0, < 2.0.0", "1.5.0", "2.0.0 0.9.0"},
		{">= 1.0.0, 1.2.0, <= 2", ">= 1.0.0, 1.2.0, <= 2.0.0", "1.2.0", "1.3.0"},
		{"1.0.0-beta", "1.0.0-beta", "1.0.0-beta", "1.0.0 1.0.0-alpha"},
		{">= 1.0.0-beta", ">= 1.0.0-beta", "1.0.0 1.1.0", "1.0.0-beta 1.0.0-rc.1"},
		{">= 1.0.0, 2.0.0-rc.1", ">= 1.0.0, 2.0.0-rc.1", "2.0.0-rc.1", "2.0.0 1.0.0"},
		{"~>1.2.3,<1.2.9", "~> 1.2.3, < 1.2.9", "1.2.8", "1.2.9"},
	}
	for _, tt := range tests {
		cs, err := ParseConstraints(tt.constraints)
		if err != nil {
			t.Errorf("ParseConstraints(%q): %v", tt.constraints, err)
			continue
		}
		if got := cs.String(); got != tt.canonical {
			t.Errorf("%q: canonical %q, want %q", tt.constraints, got, tt.canonical)
		}
		for _, v := range strings.Fields(tt.allows) {
			if !cs.Allows(mustVersion(t, v)) {
				t.Errorf("%q refuses %s", tt.constraints, v)
			}
		}
		for _, v := range strings.Fields(tt.refuses) {
			if cs.Allows(mustVersion(t, v)) {
				t.Errorf("%q allows %s", tt.constraints, v)
			}
		}
	}
	for s, want := range map[string]string{
		"=> 1.0":       `did you mean ">="?`,
		"=< 1.0":       `did you mean "<="?`,
		"~> v1.0":      `without the "v"`,
		">= 1.0,,< 2":  "an empty constraint between commas",
		">= 1.0 < 2.0": `"0 < 2" is not a number`,
		"~> 1.2.3.4":   "more than three numbers",
		"^1.0":         `"^1" is not a number`,
	} {
		if _, err := ParseConstraints(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConstraints(%q): %v, want an error saying %q", s, err, want)
		}
	}
}

// listed is a source that has the versions given, for selection tests.
type listed []string

func (l listed) String() string { return "listed" }
func (l listed) remote() bool   { return false }
func (l listed) versions(context.Context, Provider) ([]Version, error) {
	var vs []Version
	for _, s := range l {
		v, _ := ParseVersion(s)
		vs = append(vs, v)
	}
	return vs, nil
}
func (l listed) fetch(context.Context, Provider, Version, string) (*fetched, error) {
	return nil, errNotFound
}

// TestChoose checks version selection across sources: the newest release
// meeting the constraints, prereleases only when named exactly.
func TestChoose(t *testing.T) {
	tests := []struct {
		sources     []listed
		constraints string
		want        string // "" when none
	}{
		{[]listed{{"1.0.0", "2.0.0", "1.5.0"}}, "", "2.0.0"},
		{[]listed{{"1.0.0", "2.0.0", "1.5.0"}}, "< 2", "1.5.0"},
		{[]listed{{"1.0.0", "3.0.0-beta"}}, "", "1.0.0"},
		{[]listed{{"1.0.0", "3.0.0-beta"}}, ">= 1.0.0", "1.0.0"},
		{[]listed{{"1.0.0", "3.0.0-beta"}}, "3.0.0-beta", "3.0.0-beta"},
		{[]listed{{"3.2.0", "3.2.1", "3.2.2", "3.3.0", "4.0.0"}}, "~> 3.2.0, != 3.2.2", "3.2.1"},
		{[]listed{{"1.0.0"}, {"1.2.0"}, {"1.1.0"}}, "", "1.2.0"},
		{[]listed{{"1.0.0"}, {}}, "~> 1.0", "1.0.0"},
		{[]listed{{"1.0.0", "1.1.0"}}, "> 1.1", ""},
		{[]listed{{"2.0.0-rc.1", "2.0.0-rc.2"}}, "", ""},
	}
	for _, tt := range tests {
		cs, err := ParseConstraints(tt.constraints)
		if err != nil {
			t.Fatal(err)
		}
		in := &installer{p: Provider{"example.com", "acme", "thing"}, cs: cs}
		var srcs []source
		for _, s := range tt.sources {
			srcs = append(srcs, s)
		}
		v, err := in.choose(context.Background(), srcs)
		if tt.want == "" {
			if err == nil || !strings.Contains(err.Error(), "listed: versions") {
				t.Errorf("%v %q: got %v, %v; want an error naming the source", tt.sources, tt.constraints, v, err)
			}
			continue
		}
		if err != nil || v.String() != tt.want {
			t.Errorf("%v %q: got %v, %v; want %s", tt.sources, tt.constraints, v, err, tt.want)
		}
	}
}
