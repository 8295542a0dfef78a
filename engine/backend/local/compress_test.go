package local_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
)

// A state Pulumi wrote compressed (PULUMI_DIY_BACKEND_GZIP) is read, and
// written back in the form the backend is asked for, replacing the other;
// compressed backups and history records (which Pulumi does not number)
// are read too.
func TestGzipStates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	plain, err := local.New(dir, local.Options{EngineVersion: "cairn-test"})
	if err != nil {
		t.Fatal(err)
	}
	gz, err := local.New(dir, local.Options{EngineVersion: "cairn-test", Gzip: true})
	if err != nil {
		t.Fatal(err)
	}
	ref := backend.StackRef{Project: "proj", Name: "dev"}
	if err := plain.CreateStack(ctx, ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	p := &effects{dir: t.TempDir()}
	up(t, plain, ref, p, 2)
	first, _ := plain.Export(ctx, ref, backend.ExportOptions{})

	up(t, gz, ref, p, 3)
	state := stackPath(gz, "stacks", "proj", "dev.json")
	if _, err := os.Stat(state); err == nil {
		t.Errorf("%s is left beside the compressed state", state)
	}
	data, err := os.ReadFile(state + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gzip.NewReader(bytes.NewReader(data)); err != nil {
		t.Fatalf("%s is not gzip: %v", state+".gz", err)
	}
	snap, err := plain.Snapshot(ctx, ref, nil)
	if err != nil || len(snap.Resources) != 5 {
		t.Fatalf("Snapshot of the compressed state = %v, %v; want the stack, its provider and 3 resources", snap, err)
	}
	stacks, err := plain.ListStacks(ctx, "")
	if err != nil || len(stacks) != 1 || stacks[0].Ref != ref || stacks[0].Resources != 5 {
		t.Errorf("ListStacks = %+v, %v; want dev once, with 5 resources", stacks, err)
	}
	backups, _ := filepath.Glob(stackPath(gz, "backups", "proj", "dev", "dev.*.json.gz"))
	if len(backups) != 1 {
		t.Errorf("compressed backups %q, want the state the compressed update wrote", backups)
	}

	// A record as Pulumi writes it: compressed, with no version.
	var rec bytes.Buffer
	w := gzip.NewWriter(&rec)
	w.Write([]byte(`{"kind":"update","startTime":1,"message":"by pulumi","environment":{},"config":{},"version":0,"result":"succeeded","endTime":2}`))
	w.Close()
	name := "dev-" + strconv.FormatInt(time.Now().UnixNano(), 10) + ".history.json.gz"
	if err := os.WriteFile(stackPath(gz, "history", "proj", "dev", name), rec.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	history, err := plain.History(ctx, ref)
	if err != nil || len(history) != 3 || history[0].Message != "by pulumi" || history[0].Version != 3 || history[2].Version != 1 {
		t.Fatalf("History = %+v, %v; want Pulumi's record numbered 3 first", history, err)
	}

	up(t, plain, ref, p, 3)
	if _, err := os.Stat(state + ".gz"); err == nil {
		t.Errorf("%s is left beside the plain state", state+".gz")
	}
	if v, err := plain.Restore(ctx, ref, 1); v != 1 || err != nil {
		t.Fatalf("Restore(1) = %d, %v", v, err)
	}
	if got, _ := plain.Export(ctx, ref, backend.ExportOptions{}); string(got.Deployment) != string(first.Deployment) {
		t.Error("the restored state is not the state of version 1")
	}
	if v, err := plain.Restore(ctx, ref, 2); v != 2 || err != nil {
		t.Fatalf("Restore(2) of a compressed backup = %d, %v", v, err)
	}
}
