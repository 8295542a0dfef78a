package tfinstall

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// listed is a source that has the versions given, for selection tests.
type listed []string

func (l listed) String() string { return "listed" }
func (l listed) remote() bool   { return false }
func (l listed) versions(context.Context, Provider) ([]Version, error) {
	var vs []Version
	for _, s := range l {
		v, _ := tfaddr.ParseVersion(s)
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
		cs, err := tfaddr.ParseConstraints(tt.constraints)
		if err != nil {
			t.Fatal(err)
		}
		in := &installer{p: Provider{Hostname: "example.com", Namespace: "acme", Type: "thing"}, cs: cs}
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
