package local_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// up creates n resources on the stack.
func up(t *testing.T, b backend.Backend, ref backend.StackRef, p *effects, n int) *deploy.Result {
	t.Helper()
	res, err := run(context.Background(), b, ref, backend.KindUpdate, nil,
		deploy.Options{Host: p.host(), Program: wideProgram(n, plainProps, resource.Map{"count": resource.Number(float64(n))})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// names lists a snapshot's resources as "name=id".
func names(snap *snapshot.Snapshot) string {
	var out []string
	for _, r := range snap.Resources {
		out = append(out, r.URN.Name()+"="+string(r.ID))
	}
	for _, op := range snap.PendingOperations {
		out = append(out, "pending "+string(op.Type)+" "+op.Resource.URN.Name())
	}
	return strings.Join(out, " ")
}

func TestStacks(t *testing.T) {
	ctx := context.Background()
	b, dev, _ := newStack(t)
	prod := backend.StackRef{Project: "proj", Name: "prod"}
	other := backend.StackRef{Project: "other", Name: "dev"}
	for _, ref := range []backend.StackRef{prod, other} {
		if err := b.CreateStack(ctx, ref, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.CreateStack(ctx, dev, nil, nil); !errors.Is(err, backend.ErrStackExists) {
		t.Errorf("CreateStack of an existing stack = %v, want ErrStackExists", err)
	}
	for _, bad := range []backend.StackRef{{Project: "proj", Name: "../x"}, {Project: "", Name: "dev"}, {Project: "proj", Name: ".."}} {
		if err := b.CreateStack(ctx, bad, nil, nil); err == nil {
			t.Errorf("CreateStack(%+v) succeeded", bad)
		}
	}
	if _, err := b.Snapshot(ctx, backend.StackRef{Project: "proj", Name: "nope"}, nil); !errors.Is(err, backend.ErrStackNotFound) {
		t.Errorf("Snapshot of a missing stack = %v, want ErrStackNotFound", err)
	}
	up(t, b, dev, &effects{dir: t.TempDir()}, 3)

	list := func(project string) string {
		stacks, err := b.ListStacks(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range stacks {
			out = append(out, s.Ref.String()+":"+strings.Repeat("#", s.Resources))
		}
		return strings.Join(out, " ")
	}
	// dev holds the stack, the default provider and 3 resources.
	if got, want := list(""), "other/dev: proj/dev:##### proj/prod:"; got != want {
		t.Errorf("ListStacks(\"\") = %q, want %q", got, want)
	}
	if got, want := list("proj"), "proj/dev:##### proj/prod:"; got != want {
		t.Errorf("ListStacks(proj) = %q, want %q", got, want)
	}

	var notEmpty *backend.StackNotEmptyError
	if _, err := b.RemoveStack(ctx, dev, backend.RemoveOptions{}); !errors.As(err, &notEmpty) || notEmpty.Resources != 5 {
		t.Errorf("RemoveStack of a stack with resources = %v, want *StackNotEmptyError with 5", err)
	}
	if _, err := b.RemoveStack(ctx, prod, backend.RemoveOptions{}); err != nil {
		t.Errorf("RemoveStack of an empty stack: %v", err)
	}
	if _, err := b.RemoveStack(ctx, dev, backend.RemoveOptions{Force: true}); err != nil {
		t.Errorf("RemoveStack --force: %v", err)
	}
	if got, want := list(""), "other/dev:"; got != want {
		t.Errorf("after removals ListStacks = %q, want %q", got, want)
	}
	for ref, want := range map[backend.StackRef]bool{other: true, dev: false, prod: false} {
		if got, err := b.StackExists(ctx, ref); got != want || err != nil {
			t.Errorf("StackExists(%s) = %v, %v; want %v", ref, got, err, want)
		}
	}
	if _, err := b.StackExists(ctx, backend.StackRef{Project: "proj", Name: "../x"}); err == nil {
		t.Error("StackExists of an invalid name succeeded")
	}
	if backups, _ := filepath.Glob(stackPath(b, "backups", "proj", "dev", "dev.*.json")); len(backups) == 0 {
		t.Error("removing a stack kept no backup of its last state")
	}
}

func TestHistoryAndBackups(t *testing.T) {
	ctx := context.Background()
	b, ref, _ := newStack(t)
	p := &effects{dir: t.TempDir()}
	up(t, b, ref, p, 4)
	up(t, b, ref, p, 4)
	failing := deploy.Options{Host: hostOf(&failingDeletes{effects: p})}
	if _, err := run(ctx, b, ref, backend.KindDestroy, nil, failing, nil); err == nil {
		t.Fatal("the destroy with failing deletes succeeded")
	}
	history, err := b.History(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range history {
		got = append(got, string(h.Kind)+" "+string(h.Result)+" "+strings.Join(changes(h.ResourceChanges), ","))
		if h.StartTime == 0 || h.EndTime < h.StartTime {
			t.Errorf("record %d has times %d..%d", h.Version, h.StartTime, h.EndTime)
		}
	}
	want := []string{"destroy failed ", "update succeeded same=6", "update succeeded create=6"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("history = %q, want %q", got, want)
	}
	if history[0].Version != 3 || !strings.Contains(history[0].Error, "delete refused") && !strings.Contains(history[0].Error, "operations failed") {
		t.Errorf("the last record is %+v, want version 3 with the error", history[0])
	}
	backups, _ := filepath.Glob(stackPath(b, "backups", "proj", "dev", "dev.*.json"))
	if len(backups) != 4 {
		t.Errorf("%d backups, want the state before the first operation and one per operation (4)", len(backups))
	}
}

// A stack that lost its state file is an error naming the backup to
// restore, and Restore brings back the state of any version.
func TestRestore(t *testing.T) {
	ctx := context.Background()
	b, ref, _ := newStack(t)
	p := &effects{dir: t.TempDir()}
	up(t, b, ref, p, 2)
	first, _ := b.Export(ctx, ref, backend.ExportOptions{})
	up(t, b, ref, p, 4)
	last, _ := b.Export(ctx, ref, backend.ExportOptions{})
	path := stackPath(b, "stacks", "proj", "dev.json")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	_, err := b.Snapshot(ctx, ref, nil)
	if err == nil || !strings.Contains(err.Error(), "is missing") || !strings.Contains(err.Error(), "version 2 (") {
		t.Fatalf("Snapshot of a stack without its state file = %v, want an error naming the backup of version 2", err)
	}
	if err := b.CreateStack(ctx, ref, nil, nil); err == nil {
		t.Error("CreateStack over a stack that lost its state succeeded")
	}
	if v, err := b.Restore(ctx, ref, 0); v != 2 || err != nil {
		t.Fatalf("Restore(0) = %d, %v; want version 2", v, err)
	}
	if got, _ := b.Export(ctx, ref, backend.ExportOptions{}); string(got.Deployment) != string(last.Deployment) {
		t.Error("Restore(0) did not bring back the last state")
	}
	if v, err := b.Restore(ctx, ref, 1); v != 1 || err != nil {
		t.Fatalf("Restore(1) = %d, %v; want version 1", v, err)
	}
	if got, _ := b.Export(ctx, ref, backend.ExportOptions{}); string(got.Deployment) != string(first.Deployment) {
		t.Error("Restore(1) did not bring back the state of version 1")
	}
	if _, err := b.Restore(ctx, ref, 9); err == nil || !strings.Contains(err.Error(), "no backup of version 9; it has versions 1, 2, 3") {
		t.Errorf("Restore(9) = %v, want an error listing the versions", err)
	}
	history, _ := b.History(ctx, ref)
	if len(history) != 4 || !strings.Contains(history[0].Message, "restored the backup version 1") {
		t.Errorf("history = %+v, want the restores recorded", history)
	}
}

// failingDeletes refuses every delete.
type failingDeletes struct{ *effects }

func (failingDeletes) Delete(context.Context, provider.DeleteRequest) error {
	return errors.New("delete refused")
}

func changes(m map[string]int) []string {
	var out []string
	for _, op := range []string{"create", "update", "delete", "same"} {
		if n := m[op]; n > 0 {
			out = append(out, fmt.Sprintf("%s=%d", op, n))
		}
	}
	return out
}

func TestOutputs(t *testing.T) {
	b, ref, _ := newStack(t)
	if outputs, err := b.Outputs(context.Background(), ref, nil); err != nil || outputs != nil {
		t.Errorf("Outputs of a new stack = %v, %v; want none", outputs, err)
	}
	up(t, b, ref, &effects{dir: t.TempDir()}, 2)
	outputs, err := b.Outputs(context.Background(), ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := outputs["count"]; !got.Equal(resource.Number(2)) {
		t.Errorf("output count = %v, want 2", got)
	}
}

// interrupt runs an up whose process "dies" before Finish: the journal
// stays and the lock is released as a crash's lock would be broken.
func interrupt(t *testing.T, b backend.Backend, ref backend.StackRef, p *effects, n int, finish bool) *deploy.Result {
	t.Helper()
	lock, op := begin(t, b, ref, nil)
	defer lock.Release()
	res := engineUpdate(t, ref, op, deploy.Options{Host: p.host(), Program: wideProgram(n, plainProps, nil)})
	if finish {
		if err := op.Finish(context.Background(), nil, backend.Summary{Changes: res.ResourceChanges()}); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

func TestInterruptedOperationIsRecovered(t *testing.T) {
	ctx := context.Background()
	b, ref, warns := newStack(t)
	p := &effects{dir: t.TempDir()}
	res := interrupt(t, b, ref, p, 5, false)

	snap, err := b.Snapshot(ctx, ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(snap), names(res.Snapshot); got != want {
		t.Errorf("replayed journal:\n%s\nwant the engine's snapshot:\n%s", got, want)
	}
	export, err := b.Export(ctx, ref, backend.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(export.Deployment, []byte("r00004-id")) {
		t.Error("the export does not include the journal's steps")
	}

	up(t, b, ref, p, 5)
	if got := strings.Join(warns.take(), "\n"); !strings.Contains(got, "did not finish") {
		t.Errorf("warnings = %q, want one about the interrupted update", got)
	}
	history, err := b.History(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(history) != 2 || history[1].Result != backend.ResultInterrupted || history[0].Result != backend.ResultSucceeded {
		t.Errorf("history = %+v, want an interrupted update then a succeeded one", history)
	}
	if journals, _ := filepath.Glob(stackPath(b, "journals", "proj", "*")); len(journals) != 0 {
		t.Errorf("journals left after a finished operation: %v", journals)
	}
}

func TestFinishWithoutSnapshotReplaysTheJournal(t *testing.T) {
	b, ref, _ := newStack(t)
	res := interrupt(t, b, ref, &effects{dir: t.TempDir()}, 3, true)
	snap, err := b.Snapshot(context.Background(), ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(snap), names(res.Snapshot); got != want {
		t.Errorf("state written by Finish(nil):\n%s\nwant:\n%s", got, want)
	}
}

// plantJournal writes a journal file for the stack with the given base
// hash and, if compacted is set, a compacted line.
func plantJournal(t *testing.T, b *local.Backend, base, compacted string, tail string) {
	t.Helper()
	text := `{"header":{"version":1,"kind":"update","started":"2026-01-01T00:00:00Z","base":"` + base + `"}}` + "\n"
	if compacted != "" {
		text += `{"compacted":"` + compacted + `"}` + "\n"
	}
	path := stackPath(b, "journals", "proj", "dev.journal")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(text+tail), 0o600); err != nil {
		t.Fatal(err)
	}
}

func stateHash(t *testing.T, b *local.Backend) string {
	data, err := os.ReadFile(stackPath(b, "stacks", "proj", "dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func TestJournalFiles(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		plant   func(t *testing.T, b *local.Backend)
		wantErr string // "" when the state reads as it is
	}{
		// A crash after the state was written, before the journal was removed.
		{"compacted", func(t *testing.T, b *local.Backend) { plantJournal(t, b, "0ld", stateHash(t, b), "") }, ""},
		// A crash in the middle of writing an entry.
		{"torn tail", func(t *testing.T, b *local.Backend) {
			plantJournal(t, b, stateHash(t, b), "", `{"entry":{"kind":"begin","seq`)
		}, ""},
		{"corrupt line", func(t *testing.T, b *local.Backend) { plantJournal(t, b, stateHash(t, b), "", "garbage\n{}\n") }, "corrupt at line 2"},
		{"another state", func(t *testing.T, b *local.Backend) { plantJournal(t, b, "0ld", "", "") }, "does not apply"},
		{"not a journal", func(t *testing.T, b *local.Backend) {
			plantJournal(t, b, "", "", "")
			os.WriteFile(stackPath(b, "journals", "proj", "dev.journal"), []byte("{}\n"), 0o600)
		}, "does not start with a header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, ref, _ := newStack(t)
			p := &effects{dir: t.TempDir()}
			want := names(up(t, b, ref, p, 2).Snapshot)
			tt.plant(t, b)
			snap, err := b.Snapshot(ctx, ref, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Snapshot = %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := names(snap); got != want {
				t.Errorf("Snapshot = %s, want %s", got, want)
			}
			up(t, b, ref, p, 2)
			if journals, _ := filepath.Glob(stackPath(b, "journals", "proj", "*")); len(journals) != 0 {
				t.Errorf("the journal stayed after the next operation: %v", journals)
			}
		})
	}
}

func TestExportImport(t *testing.T) {
	ctx := context.Background()
	b, ref, warns := newStack(t)
	res := up(t, b, ref, &effects{dir: t.TempDir()}, 3)

	export, err := b.Export(ctx, ref, backend.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := os.ReadFile(stackPath(b, "stacks", "proj", "dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	verbatim, err := state.ExportCheckpoint(stored)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(export.Deployment, verbatim.Deployment) || export.Version != 3 {
		t.Error("the export of a stack without a journal is not its stored deployment")
	}

	// edit returns the export changed by f.
	edit := func(f func(d map[string]any)) *state.UntypedDeployment {
		var d map[string]any
		if err := json.Unmarshal(export.Deployment, &d); err != nil {
			t.Fatal(err)
		}
		f(d)
		raw, _ := json.Marshal(d)
		return &state.UntypedDeployment{Version: export.Version, Deployment: raw}
	}
	resources := func(d map[string]any) []any { return d["resources"].([]any) }
	tests := []struct {
		name    string
		into    backend.StackRef
		d       *state.UntypedDeployment
		wantErr string
	}{
		{"other stack", backend.StackRef{Project: "proj", Name: "copy"}, export, "is from stack \"dev\", not \"copy\""},
		{"broken parent", ref, edit(func(d map[string]any) {
			r := resources(d)
			d["resources"] = append([]any{r[len(r)-1]}, r[:len(r)-1]...) // a child before its parent
		}), "snapshot integrity"},
		{"wrong magic", ref, edit(func(d map[string]any) { d["manifest"].(map[string]any)["magic"] = "00" }), "magic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b.CreateStack(ctx, tt.into, nil, nil)
			err := b.Import(ctx, tt.into, tt.d, backend.ImportOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "--force") {
				t.Fatalf("Import = %v, want an error containing %q and suggesting --force", err, tt.wantErr)
			}
			if err := b.Import(ctx, tt.into, tt.d, backend.ImportOptions{Force: true}); err != nil {
				t.Fatalf("Import --force: %v", err)
			}
			if got := strings.Join(warns.take(), "\n"); !strings.Contains(got, tt.wantErr) {
				t.Errorf("warnings = %q, want one containing %q", got, tt.wantErr)
			}
		})
	}

	// Pending operations are dropped with a warning, as Pulumi does.
	withPending := edit(func(d map[string]any) {
		d["pending_operations"] = []any{map[string]any{"resource": resources(d)[2], "type": "creating"}}
	})
	if err := b.Import(ctx, ref, withPending, backend.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(warns.take(), "\n"); !strings.Contains(got, "removing pending operation 'creating'") {
		t.Errorf("warnings = %q, want one about the dropped pending operation", got)
	}
	snap, err := b.Snapshot(ctx, ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(snap), names(res.Snapshot); got != want {
		t.Errorf("after import:\n%s\nwant:\n%s", got, want)
	}
	history, _ := b.History(ctx, ref)
	if history[0].Kind != backend.KindImport {
		t.Errorf("the last history record is %+v, want an import", history[0])
	}
}

// The bytes a step writes depend on the resource it touches, not on the
// size of the stack: an up of 1,000 resources journals 100 times the bytes
// of an up of 10, and its largest entry is as large (but for the digits of
// its sequence number and operation ID).
func TestJournalBytesPerStep(t *testing.T) {
	measure := func(n int) (total, largest int) {
		b, ref, _ := newStack(t)
		_, op := begin(t, b, ref, nil)
		header, _ := os.Stat(stackPath(b, "journals", "proj", "dev.journal"))
		res := engineUpdate(t, ref, op, deploy.Options{Host: (&effects{dir: t.TempDir()}).host(), Program: wideProgram(n, plainProps, nil)})
		data, err := os.ReadFile(stackPath(b, "journals", "proj", "dev.journal"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data[header.Size():], []byte("\n")) {
			largest = max(largest, len(line))
		}
		if err := op.Finish(context.Background(), res.Snapshot, backend.Summary{}); err != nil {
			t.Fatal(err)
		}
		return len(data) - int(header.Size()), largest
	}
	small, smallLargest := measure(10)
	big, bigLargest := measure(1000)
	if ratio := float64(big) / float64(small); ratio < 90 || ratio > 110 {
		t.Errorf("journal bytes: %d for 10 resources, %d for 1,000: ratio %.1f, want about 100", small, big, ratio)
	}
	if bigLargest > smallLargest+8 {
		t.Errorf("largest journal entry: %d bytes with 1,000 resources, %d with 10", bigLargest, smallLargest)
	}
}
