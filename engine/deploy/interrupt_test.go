package deploy

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// interrupted runs an update of a, b and c, registered at once, with one
// worker. Once the provider has begun the first create, the update is
// interrupted (its context cancelled); then, with terminate nil, the create
// is let finish, otherwise terminate is closed and the create ends when the
// provider is told to stop it. It returns the name of that create, the
// update's result, the steps reported skipped and the update's error.
func interrupted(t *testing.T, h *harness, terminate chan struct{}) (string, *Result, []string, error) {
	t.Helper()
	began, release := make(chan string, 3), make(chan struct{})
	var once sync.Once
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(req provider.CreateRequest) (provider.CreateResponse, error) {
			began <- req.URN.Name()
			<-release
			if closed(terminate) {
				return provider.CreateResponse{}, errors.New("killed")
			}
			return provider.CreateResponse{ID: resource.ID(req.URN.Name() + "-id"), Outputs: req.Inputs}, nil
		}
		p.CancelF = func() { once.Do(func() { close(release) }) }
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := h.options(func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		for _, name := range []string{"a", "b", "c"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := res(name, nil)
				r.Parent = root
				_, _ = info.Monitor.RegisterResource(ctx, r)
			}()
		}
		wg.Wait()
		return nil
	})
	opts.Parallel, opts.Terminate = 1, terminate
	h.persist.reset(h.snap)
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Update(ctx, opts, h.snap)
		done <- outcome{res, err}
	}()
	first := <-began
	cancel()
	if terminate == nil {
		close(release)
	} else {
		close(terminate)
	}
	o := <-done
	if got, want := dump(h.persist.replay()), dump(o.res.Snapshot); got != want {
		t.Fatalf("the journal replays to another state\nreplayed:\n%s\nsnapshot:\n%s", got, want)
	}
	var skipped []string
	for _, e := range h.events {
		if s, ok := e.(StepEvent); ok && s.Phase == StepSkipped {
			skipped = append(skipped, string(s.Op)+" "+s.URN.Name())
		}
	}
	return first, o.res, skipped, o.err
}

// After an interrupt nothing new starts: the create in flight finishes and
// is recorded, and the others never reach the provider (those already
// waiting for a worker are reported skipped; the program registers no more).
func TestInterruptLetsTheStepsInFlightFinish(t *testing.T) {
	h := newHarness(t)
	first, res, skipped, err := interrupted(t, h, nil)
	if !errors.Is(err, ErrCancelled) {
		t.Errorf("err = %v, want ErrCancelled", err)
	}
	equal(t, "creates", h.log.filter("Create"), []string{"Create " + first})
	for _, s := range skipped {
		if s == "create "+first {
			t.Errorf("%s, which ran, is reported skipped", first)
		}
	}
	if res.Snapshot.Find(urnOf(first)) == nil {
		t.Errorf("%s, which finished, is not in the state:\n%s", first, dump(res.Snapshot))
	}
	equal(t, "resources", len(res.Snapshot.Resources), 3) // the stack, its provider, first
	equal(t, "pending operations", len(res.Snapshot.PendingOperations), 0)
	equal(t, "cancellations signalled", h.log.filter("SignalCancellation"), []string(nil))
}

// A second interrupt (Terminate) tells the providers to stop what is in
// flight; what then fails is left pending, as its outcome is unknown.
func TestTerminateLeavesTheStepsInFlightPending(t *testing.T) {
	h := newHarness(t)
	first, res, skipped, err := interrupted(t, h, make(chan struct{}))
	if !errors.Is(err, ErrCancelled) {
		t.Errorf("err = %v, want ErrCancelled", err)
	}
	equal(t, "creates", h.log.filter("Create"), []string{"Create " + first})
	if len(skipped) > 2 {
		t.Errorf("skipped %v", skipped)
	}
	ops := res.Snapshot.PendingOperations
	if len(ops) != 1 || ops[0].Resource.URN != urnOf(first) || ops[0].Type != resource.OpCreating {
		t.Errorf("pending operations = %+v, want the create of %s", ops, first)
	}
	if res.Snapshot.Find(urnOf(first)) != nil {
		t.Errorf("%s, which was stopped, is in the state", first)
	}
}

// An interrupted destroy deletes nothing more once the delete in flight has
// finished: the deletes waiting for a worker are reported skipped, and their
// resources stay.
func TestInterruptedDestroySkipsTheRest(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("a", nil), res("b", nil), res("c", nil)))
	began, release := make(chan string, 3), make(chan struct{})
	h.provider("pkgA", func(p *fakeProvider) {
		p.DeleteF = func(req provider.DeleteRequest) error {
			began <- req.URN.Name()
			<-release
			return nil
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := h.options(nil)
	opts.Parallel = 1
	done := make(chan *Result, 1)
	go func() {
		res, _ := Destroy(ctx, opts, h.snap)
		done <- res
	}()
	first := <-began
	cancel()
	close(release)
	res := <-done
	var skipped []string
	for _, e := range h.events {
		if s, ok := e.(StepEvent); ok && s.Phase == StepSkipped {
			skipped = append(skipped, string(s.Op)+" "+s.URN.Name())
		}
	}
	sort.Strings(skipped)
	var want []string
	for _, name := range []string{"a", "b", "c"} {
		if name != first {
			want = append(want, "delete "+name)
		}
	}
	// The provider and the stack would have gone after them.
	equal(t, "skipped", skipped, append(want, "delete default", "delete proj-dev"))
	for _, name := range []string{"a", "b", "c"} {
		if gone := res.Snapshot.Find(urnOf(name)) == nil; gone != (name == first) {
			t.Errorf("%s gone: %v, but the delete in flight was %s's", name, gone, first)
		}
	}
}
