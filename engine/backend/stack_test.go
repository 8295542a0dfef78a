package backend

import (
	"strings"
	"testing"
)

func TestParseStackRef(t *testing.T) {
	long := strings.Repeat("a", maxNameLength)
	for _, tc := range []struct {
		name    string
		want    StackRef
		wantErr string
	}{
		{name: "dev", want: StackRef{"proj", "dev"}},
		{name: "dev.eu-1_b", want: StackRef{"proj", "dev.eu-1_b"}},
		{name: long, want: StackRef{"proj", long}},
		{name: "organization/proj/dev", want: StackRef{"proj", "dev"}},
		{name: "acme/proj/dev", want: StackRef{"proj", "dev"}},
		{name: long + "a", wantErr: "at most 100 characters"},
		{name: "../x", wantErr: `invalid stack name "../x"`},
		{name: "..", wantErr: `invalid stack name ".."`},
		{name: "", wantErr: `invalid stack name ""`},
		{name: "a b", wantErr: `invalid stack name "a b"`},
		{name: "proj/dev", wantErr: "or org/project/stack"},
		{name: "a/b/c/d", wantErr: "or org/project/stack"},
		{name: "acme/other/dev", wantErr: `belongs to project "other", not to this project "proj"`},
		{name: "ac me/proj/dev", wantErr: `invalid organization name "ac me"`},
		{name: "acme/proj/..", wantErr: `invalid stack name ".."`},
	} {
		got, err := ParseStackRef("proj", tc.name)
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseStackRef(%q) = %v, %v; want an error saying %q", tc.name, got, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("ParseStackRef(%q) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}
