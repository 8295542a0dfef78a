package local_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
)

// Tags are kept in Pulumi's tags file, beside the state; tags Cairn kept
// in its own file before are read, and moved on the next change.
func TestTagsInPulumiFile(t *testing.T) {
	ctx := context.Background()
	b, ref, _ := newStack(t)
	old := stackPath(b, "tags", "proj", "dev.json")
	if err := os.MkdirAll(filepath.Dir(old), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte(`{"owner":"ann"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if tags, err := b.Tags(ctx, ref); err != nil || !reflect.DeepEqual(tags, backend.Tags{"owner": "ann"}) {
		t.Fatalf("Tags from Cairn's former file = %v, %v", tags, err)
	}
	if err := b.SetTags(ctx, ref, backend.Tags{"owner": "bob", "team": "web"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(stackPath(b, "stacks", "proj", "dev.pulumi-tags"))
	if want := `{"version":1,"tags":{"owner":"bob","team":"web"}}`; err != nil || string(data) != want {
		t.Errorf("tags file = %s, %v; want %s", data, err, want)
	}
	if _, err := os.Stat(old); err == nil {
		t.Errorf("%s is left behind", old)
	}
	if err := os.WriteFile(stackPath(b, "stacks", "proj", "dev.pulumi-tags"), []byte(`{"version":1,"tags":{"by":"pulumi"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if tags, err := b.Tags(ctx, ref); err != nil || !reflect.DeepEqual(tags, backend.Tags{"by": "pulumi"}) {
		t.Errorf("Tags from Pulumi's file = %v, %v", tags, err)
	}
	if stacks, err := b.ListStacks(ctx, "proj"); err != nil || len(stacks) != 1 {
		t.Errorf("ListStacks = %+v, %v; want dev alone", stacks, err)
	}
	if err := b.SetTags(ctx, ref, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stackPath(b, "stacks", "proj", "dev.pulumi-tags")); err == nil {
		t.Error("the tags file is left after the last tag was removed")
	}
}
