package local_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
)

// lockPath is where the local backend keeps a stack's lock.
func lockPath(b *local.Backend, ref backend.StackRef) string {
	return stackPath(b, "locks", "organization", ref.Project, ref.Name, "cairn.json")
}

// writeLock plants a lock file as another process would have left it.
func writeLock(t *testing.T, path string, info backend.LockInfo) {
	t.Helper()
	data, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLockExcludesConcurrentOperations(t *testing.T) {
	b, ref, _ := newStack(t)
	const contenders = 8
	var wg sync.WaitGroup
	start := make(chan struct{})
	locks := make([]backend.Lock, contenders)
	errs := make([]error, contenders)
	for i := range contenders {
		// Each contender opens the directory itself, as another process would.
		other, err := local.New(stateDir(b), local.Options{})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			locks[i], errs[i] = other.Lock(context.Background(), ref)
		}()
	}
	close(start)
	wg.Wait()

	var holder backend.Lock
	for i, err := range errs {
		var locked *backend.LockedError
		switch {
		case err == nil && holder == nil:
			holder = locks[i]
		case err == nil:
			t.Fatalf("two contenders hold the lock")
		case !errors.As(err, &locked):
			t.Fatalf("contender %d: %v, want a *LockedError", i, err)
		}
	}
	if holder == nil {
		t.Fatal("no contender got the lock")
	}
	host, _ := os.Hostname()
	_, err := b.Lock(context.Background(), ref)
	var locked *backend.LockedError
	if !errors.As(err, &locked) {
		t.Fatalf("Lock while held = %v, want *LockedError", err)
	}
	info := holder.Info()
	if locked.Holder.Pid != os.Getpid() || locked.Holder.Hostname != host || !locked.Holder.Timestamp.Equal(info.Timestamp) {
		t.Errorf("the error names %+v, want the holder %+v", locked.Holder, info)
	}
	for _, want := range []string{"pid " + strconv.Itoa(os.Getpid()), "host " + host, info.Timestamp.Format(time.RFC3339), "cairn stack unlock"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if err := holder.Release(); err != nil {
		t.Fatal(err)
	}
	next, err := b.Lock(context.Background(), ref)
	if err != nil {
		t.Fatalf("Lock after Release: %v", err)
	}
	next.Release()
}

func TestLockOfDeadProcessIsBroken(t *testing.T) {
	b, ref, warns := newStack(t)
	// A process that has exited: its pid names no process any more.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	host, _ := os.Hostname()
	writeLock(t, lockPath(b, ref), backend.LockInfo{Pid: dead, Username: "someone", Hostname: host, Timestamp: time.Now().Add(-time.Hour)})

	lock, err := b.Lock(context.Background(), ref)
	if err != nil {
		t.Fatalf("Lock over a dead process's lock: %v", err)
	}
	defer lock.Release()
	got := strings.Join(warns.take(), "\n")
	if !strings.Contains(got, "broke the lock") || !strings.Contains(got, "pid "+strconv.Itoa(dead)) {
		t.Errorf("warnings = %q, want one about breaking pid %d's lock", got, dead)
	}
}

func TestLockOfAnotherHost(t *testing.T) {
	b, ref, _ := newStack(t)
	held := backend.LockInfo{Pid: 4242, Username: "ci", Hostname: "build-agent-7", Timestamp: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	writeLock(t, lockPath(b, ref), held)

	_, err := b.Lock(context.Background(), ref)
	var locked *backend.LockedError
	if !errors.As(err, &locked) || locked.Holder != held {
		t.Fatalf("Lock = %v, want *LockedError naming %+v", err, held)
	}
	for _, want := range []string{"pid 4242", "host build-agent-7", "2026-03-04T05:06:07Z"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	info, err := b.Unlock(context.Background(), ref)
	if err != nil || info == nil || *info != held {
		t.Fatalf("Unlock = %+v, %v; want %+v", info, err, held)
	}
	lock, err := b.Lock(context.Background(), ref)
	if err != nil {
		t.Fatalf("Lock after Unlock: %v", err)
	}
	lock.Release()
	if info, err := b.Unlock(context.Background(), ref); info != nil || err != nil {
		t.Errorf("Unlock of an unlocked stack = %+v, %v; want nil, nil", info, err)
	}
}

// Pulumi's own lock files (<uuid>.json beside Cairn's) are respected.
func TestLockRespectsPulumiLock(t *testing.T) {
	b, ref, _ := newStack(t)
	held := backend.LockInfo{Pid: 77, Username: "me", Hostname: "laptop", Timestamp: time.Now().UTC().Truncate(time.Second)}
	writeLock(t, filepath.Join(filepath.Dir(lockPath(b, ref)), "0b5a83ae-2b67-4a5b-9d64-1b9c2d6a3f10.json"), held)
	_, err := b.Lock(context.Background(), ref)
	var locked *backend.LockedError
	if !errors.As(err, &locked) || locked.Holder != held {
		t.Fatalf("Lock = %v, want *LockedError naming Pulumi's lock %+v", err, held)
	}
	if _, err := os.Stat(lockPath(b, ref)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Cairn's lock file stayed after the failed Lock: %v", err)
	}
}

// A live lock is not broken by `cairn stack unlock`; an operation whose
// lock file was removed by hand writes nothing more, and no other process
// recovers its journal while it runs.
func TestRemovedLockStopsFinish(t *testing.T) {
	b, ref, _ := newStack(t)
	ctx := context.Background()
	lock, op := begin(t, b, ref, nil)
	if _, err := b.Unlock(ctx, ref); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("Unlock of a live lock = %v, want an error saying its holder is still running", err)
	}
	if err := os.RemoveAll(filepath.Dir(lockPath(b, ref))); err != nil {
		t.Fatal(err)
	}
	// Another process takes the lock anew, but may not start an operation
	// or import over the running one's journal.
	other, err := local.New(stateDir(b), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := other.Lock(ctx, ref)
	if err != nil {
		t.Fatalf("Lock after the lock file was removed: %v", err)
	}
	if _, err := second.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate}); err == nil || !strings.Contains(err.Error(), "is running") {
		t.Fatalf("Begin beside a running operation = %v, want an error saying it is running", err)
	}
	if err := second.Release(); err != nil {
		t.Fatal(err)
	}
	exported, err := b.Export(ctx, ref, backend.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Import(ctx, ref, exported, backend.ImportOptions{}); err == nil || !strings.Contains(err.Error(), "is running") {
		t.Fatalf("Import beside a running operation = %v, want an error saying it is running", err)
	}
	if _, err := other.RemoveStack(ctx, ref, backend.RemoveOptions{Force: true}); err == nil || !strings.Contains(err.Error(), "is running") {
		t.Fatalf("RemoveStack --force beside a running operation = %v, want an error saying it is running", err)
	}

	before, _ := os.ReadFile(stackPath(b, "stacks", "proj", "dev.json"))
	err = op.Finish(ctx, op.Base(), backend.Summary{})
	if err == nil || !strings.Contains(err.Error(), "no longer holds the lock") {
		t.Fatalf("Finish after the lock was removed = %v, want an error", err)
	}
	after, _ := os.ReadFile(stackPath(b, "stacks", "proj", "dev.json"))
	if string(before) != string(after) {
		t.Error("Finish wrote the state without holding the lock")
	}
	if _, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate}); err == nil {
		t.Error("Begin under a removed lock succeeded")
	}
	lock.Release()
	// Once its process lets go, the journal is recovered as usual.
	next, err := other.Lock(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Release()
	if _, err := next.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate}); err != nil {
		t.Fatalf("Begin after the first operation let go: %v", err)
	}
}
