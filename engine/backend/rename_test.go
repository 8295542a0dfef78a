package backend

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

func TestRenameCheckpoint(t *testing.T) {
	from, to := StackRef{"proj", "dev"}, StackRef{"proj", "prod"}
	root := &resource.State{URN: resource.NewURN("dev", "proj", "", resource.RootStackType, "proj-dev"), Type: resource.RootStackType,
		Outputs: resource.Map{"ref": resource.String("urn:pulumi:dev::proj::kv:index:Item::a"), "other": resource.String("urn:pulumi:qa::proj::kv:index:Item::a")}}
	item := &resource.State{URN: resource.NewURN("dev", "proj", "", "kv:index:Item", "a"), Type: "kv:index:Item", Custom: true, ID: "a",
		Parent: root.URN, Dependencies: []resource.URN{root.URN}}
	data, err := state.NewEncoder(state.EncodeOptions{}).Checkpoint("organization/proj/dev", &snapshot.Snapshot{Resources: []*resource.State{root, item}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := RenameCheckpoint(data, from, to)
	if err != nil {
		t.Fatal(err)
	}
	text := string(got)
	for _, want := range []string{`"organization/proj/prod"`, `"urn:pulumi:prod::proj::pulumi:pulumi:Stack::proj-prod"`,
		`"parent": "urn:pulumi:prod::proj::`, `"urn:pulumi:prod::proj::kv:index:Item::a"`, `"urn:pulumi:qa::proj::kv:index:Item::a"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the renamed checkpoint lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "urn:pulumi:dev::") || strings.Contains(text, "proj/dev\"") {
		t.Errorf("the renamed checkpoint still names stack dev:\n%s", text)
	}
	if _, err := RenameCheckpoint(data, from, StackRef{"other", "dev"}); err == nil {
		t.Error("a rename into another project succeeded")
	}
}
