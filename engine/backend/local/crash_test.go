package local_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// The crash test's child process: the test binary run again with these
// variables set performs one `up` of crashResources resources and may be
// killed on the way.
const (
	envChild   = "CAIRN_CRASH_CHILD"   // the state directory
	envEffects = "CAIRN_CRASH_EFFECTS" // the provider's directory
	envKill    = "CAIRN_CRASH_KILL"    // "journal:N", "create:N", or "" (run to the end)
)

// crashResources is more than the kill points of TestCrashRecovery can take
// together, so every one of them is reached.
const crashResources = 1000

var crashRef = backend.StackRef{Project: "crash", Name: "dev"}

func TestMain(m *testing.M) {
	if dir := os.Getenv(envChild); dir != "" {
		if err := crashChild(dir, os.Getenv(envEffects), os.Getenv(envKill)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashChild runs the up. With kill "journal:N" it SIGKILLs itself once its
// N-th journal entry is durable; with "create:N", in the N-th Create right
// after its side effect. It prints "created <name>" after every side effect,
// for a parent that kills it from outside; with "parent:N", creates from the
// N-th on do not return, so the run cannot end before that kill arrives.
func crashChild(dir, effectsDir, kill string) error {
	mode, n, _ := strings.Cut(kill, ":")
	after, _ := strconv.ParseInt(n, 10, 64)
	die := func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
	var creates atomic.Int64
	p := &effects{dir: effectsDir, created: func(name string) {
		fmt.Println("created", name)
		switch n := creates.Add(1); {
		case mode == "create" && n == after:
			die()
		case mode == "parent" && n >= after:
			time.Sleep(time.Hour)
		}
	}}
	b, err := local.New(dir, local.Options{})
	if err != nil {
		return err
	}
	wrap := func(j snapshot.Journal) snapshot.Journal {
		if mode != "journal" {
			return j
		}
		return &killingJournal{Journal: j, after: after, die: die}
	}
	opts := deploy.Options{Host: p.host(), Program: wideProgram(crashResources, plainProps, nil), Parallel: 8}
	_, err = run(context.Background(), b, crashRef, backend.KindUpdate, nil, opts, wrap)
	return err
}

// killingJournal kills the process once its after-th entry is durable.
type killingJournal struct {
	snapshot.Journal
	n     atomic.Int64
	after int64
	die   func()
}

func (k *killingJournal) Append(e snapshot.JournalEntry) error {
	err := k.Journal.Append(e)
	if k.n.Add(1) == k.after {
		k.die()
	}
	return err
}

// TestCrashRecovery kills a real `up` of 1,000 resources with SIGKILL at many
// points, checking after each crash that the recovered state lost nothing
// and that every create the provider had begun and the state does not hold
// is a pending operation; it resolves those with a refresh (importing the
// ones that exist), as a user would, and finally runs the up to its end:
// no resource was ever created twice.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a dozen processes")
	}
	ctx := context.Background()
	stateDir, effectsDir := t.TempDir(), t.TempDir()
	b, err := local.New(stateDir, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CreateStack(ctx, crashRef, nil, nil); err != nil {
		t.Fatal(err)
	}
	p := &effects{dir: effectsDir}
	kills := []string{"journal:1", "journal:2", "create:1", "journal:37", "create:10", "parent:25",
		"journal:150", "create:30", "parent:1", "parent:60", "journal:205", "journal:120"}
	for _, kill := range kills {
		t.Run(kill, func(t *testing.T) {
			if died := runChild(t, stateDir, effectsDir, kill); !died {
				t.Fatal("the run finished before the kill point")
			}
			snap, err := b.Snapshot(ctx, crashRef, nil)
			if err != nil {
				t.Fatalf("loading after the crash: %v", err)
			}
			checkRecovered(t, snap, p)
			resolvePendingCreates(t, b, p, snap)
		})
	}

	if died := runChild(t, stateDir, effectsDir, ""); died {
		t.Fatal("the last run was killed")
	}
	snap, err := b.Snapshot(ctx, crashRef, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecovered(t, snap, p)
	if got := len(p.world(t)); got != crashResources {
		t.Errorf("%d resources exist, want %d", got, crashResources)
	}
	if live := liveThings(snap); len(live) != crashResources || len(snap.PendingOperations) != 0 {
		t.Errorf("the state holds %d resources and %d pending operations, want %d and 0", len(live), len(snap.PendingOperations), crashResources)
	}
	if dups, err := os.ReadFile(filepath.Join(effectsDir, "duplicates.log")); err == nil {
		t.Errorf("resources created twice:\n%s", dups)
	}
	history, err := b.History(ctx, crashRef)
	if err != nil {
		t.Fatal(err)
	}
	if len(history) == 0 || history[0].Kind != backend.KindUpdate || history[0].Result != backend.ResultSucceeded {
		t.Errorf("the last history record is %+v, want a succeeded update", history[0])
	}
}

// runChild runs the child with a kill point and reports whether it was
// killed. "parent:N" kills it from here after it reported N creates.
func runChild(t *testing.T, stateDir, effectsDir, kill string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+stateDir, envEffects+"="+effectsDir, envKill+"="+kill)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	mode, n, _ := strings.Cut(kill, ":")
	after, _ := strconv.Atoi(n)
	lines := bufio.NewScanner(stdout)
	for seen := 0; lines.Scan(); {
		if seen++; mode == "parent" && seen == after {
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true
		}
	}
	if err != nil {
		t.Fatalf("the child failed: %v\n%s", err, stderr.String())
	}
	return false
}

// checkRecovered checks a state recovered after a crash against the world.
func checkRecovered(t *testing.T, snap *snapshot.Snapshot, p *effects) {
	t.Helper()
	if err := snap.VerifyIntegrity(); err != nil {
		t.Fatalf("the recovered state is invalid: %v", err)
	}
	live := liveThings(snap)
	pending := map[string]resource.OperationType{}
	for _, op := range snap.PendingOperations {
		pending[op.Resource.URN.Name()] = op.Type
	}
	world := p.world(t)
	for name, id := range world {
		if got, ok := live[name]; ok && got != id {
			t.Errorf("%s has ID %q in the state, %q in the world", name, got, id)
		}
		if _, ok := live[name]; !ok && pending[name] != resource.OpCreating {
			t.Errorf("%s exists but is neither in the state nor a pending create: it was lost", name)
		}
	}
	for name := range live {
		if _, ok := world[name]; !ok {
			t.Errorf("%s is in the state but does not exist", name)
		}
	}
	started, _ := os.ReadFile(filepath.Join(p.dir, "started.log"))
	for _, name := range strings.Fields(string(started)) {
		if _, ok := live[name]; !ok && pending[name] != resource.OpCreating {
			t.Errorf("the create of %s began and did not finish, but it is not a pending create (pending: %v)", name, pending)
		}
	}
	for name, typ := range pending {
		if _, ok := live[name]; ok && typ == resource.OpCreating {
			t.Errorf("%s is both in the state and a pending create", name)
		}
	}
}

// resolvePendingCreates runs a refresh that imports the pending creates
// whose resource exists and clears the others, then checks that the state
// and the world agree.
func resolvePendingCreates(t *testing.T, b *local.Backend, p *effects, snap *snapshot.Snapshot) {
	t.Helper()
	world := p.world(t)
	imports := map[resource.URN]resource.ID{}
	for _, op := range snap.PendingOperations {
		if id, ok := world[op.Resource.URN.Name()]; ok && op.Type == resource.OpCreating {
			imports[op.Resource.URN] = id
		}
	}
	opts := deploy.Options{Host: p.host(), ClearPendingCreates: true, ImportPendingCreates: imports}
	if _, err := run(context.Background(), b, crashRef, backend.KindRefresh, nil, opts, nil); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	os.Remove(filepath.Join(p.dir, "started.log"))
	after, err := b.Snapshot(context.Background(), crashRef, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.PendingOperations) != 0 {
		t.Errorf("after the refresh, %d pending operations remain", len(after.PendingOperations))
	}
	if live := liveThings(after); len(live) != len(world) {
		t.Errorf("after the refresh the state holds %d resources, the world %d", len(live), len(world))
	}
}

// liveThings returns the provider's resources in the state, by name.
func liveThings(snap *snapshot.Snapshot) map[string]resource.ID {
	out := map[string]resource.ID{}
	for _, r := range snap.Resources {
		if r.Type == thingType && !r.Delete {
			out[r.URN.Name()] = r.ID
		}
	}
	return out
}
