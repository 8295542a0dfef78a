package display

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestDiffLines(t *testing.T) {
	old := &resource.State{URN: fxAssets, Inputs: resource.MapFromGo(map[string]any{
		"acl":   "private",
		"creds": resource.MakeSecret(resource.FromGo(map[string]any{"user": "admin", "key": "k1"})),
		"rules": []any{map[string]any{"cidr": "10.0.0.0/8"}},
		"tags":  map[string]any{"env": "dev", "stamp": "1"},
	}), Outputs: resource.MapFromGo(map[string]any{"size": 10})}
	update := func(news map[string]any, dd resource.DetailedDiff, keys ...string) *deploy.StepEvent {
		return &deploy.StepEvent{Op: deploy.OpUpdate, URN: fxAssets, Old: old,
			New: &resource.State{URN: fxAssets, Inputs: resource.MapFromGo(news)}, DetailedDiff: dd, Keys: keys}
	}
	base := map[string]any{
		"acl":   "private",
		"creds": resource.MakeSecret(resource.FromGo(map[string]any{"user": "root", "key": "k1"})),
		"rules": []any{map[string]any{"cidr": "10.0.0.0/16"}},
		"tags":  map[string]any{"env": "dev", "stamp": "2"},
	}
	hidden := update(base, resource.DetailedDiff{"tags.stamp": {Kind: resource.DiffUpdate, InputDiff: true}})
	hidden.New.HideDiff = []string{"tags.stamp"}
	tests := []struct {
		name string
		e    *deploy.StepEvent
		full bool
		want string
	}{
		{"nested array path", update(base, resource.DetailedDiff{"rules[0].cidr": {Kind: resource.DiffUpdate, InputDiff: true}}), false,
			`~ rules[0].cidr: "10.0.0.0/8" → "10.0.0.0/16"`},
		{"under a secret", update(base, resource.DetailedDiff{"creds.user": {Kind: resource.DiffUpdate, InputDiff: true}}), false,
			`~ creds.user: [secret] → [secret]`},
		{"old output", update(map[string]any{"size": 20}, resource.DetailedDiff{"size": {Kind: resource.DiffUpdate}}), false,
			`~ size: 10 → 20`},
		{"computed when the provider gave none", update(map[string]any{"acl": "public"}, nil), false,
			"~ acl: \"private\" → \"public\"\n- creds: [secret]\n- rules: [\n-     [0]: {\n-         cidr: \"10.0.0.0/8\"\n-     }\n- ]\n" +
				"- tags: {\n-     env  : \"dev\"\n-     stamp: \"1\"\n- }"},
		{"replace key without detail", update(base, resource.DetailedDiff{"tags.stamp": {Kind: resource.DiffUpdate, InputDiff: true}}, "acl"), false,
			"~ acl: \"private\" → \"private\" [forces replacement]\n~ tags.stamp: \"1\" → \"2\""},
		{"hidden path", hidden, false, ""},
		{"hidden path, full", hidden, true,
			"  acl: \"private\"\n  creds: [secret]\n  rules: [\n      [0]: {\n          cidr: \"10.0.0.0/16\"\n      }\n  ]\n  tags: {\n      env: \"dev\"\n  }"},
		{"object replaced by scalar", update(map[string]any{"tags": "none"}, resource.DetailedDiff{"tags": {Kind: resource.DiffUpdate, InputDiff: true}}), false,
			"- tags: {\n-     env  : \"dev\"\n-     stamp: \"1\"\n- }\n+ tags: \"none\""},
		{"unparsable path", update(base, resource.DetailedDiff{"a..b": {Kind: resource.DiffAdd}}), false, "+ a..b"},
		{"read hidden unless full", &deploy.StepEvent{Op: deploy.OpRead, New: old}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines []string
			for _, l := range (valueFormat{}).render(differ{full: tt.full}.changes(tt.e)) {
				lines = append(lines, string(l.mark)+" "+l.text)
			}
			if got := strings.Join(lines, "\n"); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestDiffKeys(t *testing.T) {
	e := &deploy.StepEvent{Diffs: []string{"name", "tags"}, DetailedDiff: resource.DetailedDiff{
		"tags.a": {Kind: resource.DiffAdd}, "tags.b": {Kind: resource.DiffDelete}, "website": {Kind: resource.DiffAdd},
		"old": {Kind: resource.DiffDeleteReplace},
	}}
	if got, want := strings.Join(diffKeys(e), " "), "~name -old ~tags +website"; got != want {
		t.Errorf("diffKeys = %q, want %q", got, want)
	}
}
