package deploy

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

func TestRefreshRemovesDeletedAndRewritesDependents(t *testing.T) {
	h := newHarness(t)
	gone := map[string]bool{}
	h.provider("pkgA", func(p *fakeProvider) {
		p.ReadF = func(req provider.ReadRequest) (provider.ReadResponse, error) {
			if gone[req.URN.Name()] {
				return provider.ReadResponse{}, nil
			}
			out := req.Outputs.Copy()
			if req.URN.Name() == "drifted" {
				out["x"] = resource.Number(99)
			}
			return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: out}, nil
		}
	})
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		out, err := register(ctx, info, res("a", nil), res("drifted", map[string]any{"x": 1}))
		if err != nil {
			return err
		}
		b := res("b", map[string]any{"in": string(out["a"].ID)})
		b.Dependencies = []resource.URN{out["a"].URN}
		b.PropertyDependencies = map[string][]resource.URN{"in": {out["a"].URN}}
		b.Parent = h.rootURN(info)
		_, err = info.Monitor.RegisterResource(ctx, b)
		return err
	})
	gone["a"] = true
	res1, err := h.refresh()
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 1, OpUpdate: 1, OpDelete: 1})
	if h.find("a") != nil {
		t.Errorf("a is still in the state")
	}
	b := h.find("b")
	if len(b.Dependencies) != 0 || len(b.PropertyDependencies["in"]) != 0 {
		t.Errorf("b still refers to a: %+v %+v", b.Dependencies, b.PropertyDependencies)
	}
	if got := h.find("drifted").Outputs["x"]; !got.Equal(resource.Number(99)) {
		t.Errorf("drift not recorded: %v", got)
	}
	// A preview-only refresh changes nothing.
	gone["b"] = true
	before := dump(h.snap)
	if _, err := h.refresh(func(o *Options) { o.DryRun = true }); err != nil {
		t.Fatal(err)
	}
	if dump(h.snap) != before {
		t.Errorf("a preview refresh changed the state")
	}
}

func TestTargets(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("a", map[string]any{"x": 1}), res("b", map[string]any{"x": 1})))
	h.log.take()
	v2 := func(ctx context.Context, info RunInfo) error {
		out, err := register(ctx, info, res("a", map[string]any{"x": 2}), res("b", map[string]any{"x": 2}), res("new", nil))
		if err != nil {
			return err
		}
		if !out["new"].Skipped || out["new"].ID != resource.UnknownID {
			t.Errorf("untargeted create not reported as skipped: %+v", out["new"])
		}
		return nil
	}
	res1 := h.mustUp(v2, func(o *Options) { o.Targets = []string{string(urnOf("a"))} })
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 3, OpUpdate: 1})
	equal(t, "updates", h.log.filter("Update"), []string{"Update a"})
	if !h.find("b").Inputs["x"].Equal(resource.Number(1)) {
		t.Errorf("untargeted b changed")
	}
	if h.find("new") != nil {
		t.Errorf("untargeted new resource was created")
	}

	// A targeted resource that depends on a skipped create is an error.
	dependent := func(ctx context.Context, info RunInfo) error {
		out, err := register(ctx, info, res("skipme", nil))
		if err != nil {
			return err
		}
		d := res("dep", nil)
		d.Parent, d.Dependencies = h.rootURN(info), []resource.URN{out["skipme"].URN}
		_, err = info.Monitor.RegisterResource(ctx, d)
		return err
	}
	_, err := h.up(dependent, func(o *Options) { o.Targets = []string{"**dep"} })
	if err == nil || !strings.Contains(err.Error(), "not created because it is not targeted") {
		t.Errorf("dependent of skipped create: %v", err)
	}

	// --target-dependents takes dependents along; globs match.
	res2 := h.mustUp(dependent, func(o *Options) {
		o.Targets = []string{"urn:pulumi:dev::proj::pkgA:index:Thing::skip*"}
		o.TargetDependents = true
	})
	if res2.Changes[OpCreate] != 2 {
		t.Errorf("changes with dependents: %v", res2.Changes)
	}
	// --exclude keeps the excluded resource as it was.
	res3 := h.mustUp(program(res("a", map[string]any{"x": 3}), res("b", map[string]any{"x": 3})),
		func(o *Options) { o.Excludes = []string{string(urnOf("b"))} })
	if res3.Changes[OpUpdate] != 1 || !h.find("b").Inputs["x"].Equal(resource.Number(1)) {
		t.Errorf("exclude: %v %v", res3.Changes, h.find("b").Inputs["x"])
	}
	// Untargeted resources missing from the program are not deleted.
	res4 := h.mustUp(program(res("a", map[string]any{"x": 3})), func(o *Options) { o.Targets = []string{string(urnOf("a"))} })
	if res4.Changes[OpDelete] != 0 || h.find("b") == nil {
		t.Errorf("targeted update deleted an untargeted resource: %v", res4.Changes)
	}
}

func TestTargetedDestroy(t *testing.T) {
	h := newHarness(t)
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		out, err := register(ctx, info, res("a", nil), res("lone", nil))
		if err != nil {
			return err
		}
		b := res("b", nil)
		b.Parent, b.Dependencies = h.rootURN(info), []resource.URN{out["a"].URN}
		_, err = info.Monitor.RegisterResource(ctx, b)
		return err
	})
	if _, err := h.destroy(func(o *Options) { o.Targets = []string{string(urnOf("a"))} }); err == nil || !strings.Contains(err.Error(), "depends on") {
		t.Fatalf("targeted destroy with a dependent: %v", err)
	}
	res1, err := h.destroy(func(o *Options) { o.Targets = []string{string(urnOf("lone"))} })
	if err != nil || res1.Changes[OpDelete] != 1 || h.find("lone") != nil || h.find("a") == nil {
		t.Fatalf("targeted destroy: %v %v", res1.Changes, err)
	}
	res2, err := h.destroy(func(o *Options) {
		o.Targets = []string{string(urnOf("a"))}
		o.TargetDependents = true
	})
	if err != nil || res2.Changes[OpDelete] != 2 {
		t.Fatalf("destroy with dependents: %v %v", res2.Changes, err)
	}
}

func TestImportOption(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.ReadF = func(req provider.ReadRequest) (provider.ReadResponse, error) {
			if req.ID != "existing-1" {
				return provider.ReadResponse{}, nil
			}
			state := resource.Map{"x": resource.Number(1), "computed": resource.String("c")}
			return provider.ReadResponse{ID: req.ID, Inputs: resource.Map{"x": resource.Number(1)}, Outputs: state}, nil
		}
	})
	imp := func(x int, id string) RegisterRequest {
		r := res("a", map[string]any{"x": x})
		r.ImportID = resource.ID(id)
		return r
	}
	// Inputs that differ from what exists fail the import and record nothing.
	if _, err := h.up(program(imp(2, "existing-1"))); err == nil || !strings.Contains(err.Error(), "differ") {
		t.Fatalf("mismatched import: %v", err)
	}
	if h.find("a") != nil {
		t.Fatal("a failed import was recorded")
	}
	if _, err := h.up(program(imp(1, "missing"))); err == nil || !strings.Contains(err.Error(), "no pkgA:index:Thing with ID \"missing\"") {
		t.Fatalf("missing import: %v", err)
	}
	h.log.take()
	res1 := h.mustUp(program(imp(1, "existing-1")))
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 2, OpImport: 1})
	equal(t, "no create", h.log.filter("Create"), []string(nil))
	a := h.find("a")
	if a.ID != "existing-1" || !a.Outputs["computed"].Equal(resource.String("c")) || a.ImportID != "existing-1" {
		t.Errorf("imported state: %+v", a)
	}
	// Once imported, it is managed like any resource.
	res2 := h.mustUp(program(imp(1, "existing-1")))
	equal(t, "after import", res2.Changes, map[Op]int{OpSame: 3})

	// A resource the stack has under the ID an import names is left alone,
	// as Terraform leaves a resource of its state that an import block
	// names: its state moved in from Terraform has no import ID.
	b := res("b", map[string]any{"x": 1})
	h.mustUp(program(imp(1, "existing-1"), b))
	b.ImportID = h.find("b").ID
	res3 := h.mustUp(program(imp(1, "existing-1"), b))
	equal(t, "import of what the stack has", res3.Changes, map[Op]int{OpSame: 4})
}

func TestPreviewWithUnknownsThroughAChain(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(req provider.CreateRequest) (provider.CreateResponse, error) {
			out := req.Inputs.Copy()
			out["computed"] = resource.String("real")
			if req.Preview {
				out["computed"] = resource.Unknown()
			}
			return provider.CreateResponse{ID: "id-" + resource.ID(req.URN.Name()), Outputs: out}, nil
		}
	})
	var responses []*RegisterResponse
	chain := func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		responses = nil
		in := resource.String("seed")
		var prev resource.URN
		for _, n := range []string{"one", "two", "three"} {
			r := res(n, nil)
			r.Parent, r.Properties = root, resource.Map{"in": in}
			if prev != "" {
				r.PropertyDependencies = map[string][]resource.URN{"in": {prev}}
			}
			resp, err := info.Monitor.RegisterResource(ctx, r)
			if err != nil {
				return err
			}
			responses = append(responses, resp)
			in, prev = resp.Outputs["computed"], resp.URN
		}
		return nil
	}
	h.log.take()
	if _, err := h.preview(chain); err != nil {
		t.Fatal(err)
	}
	for i, r := range responses {
		if r.ID != resource.UnknownID || !r.Outputs["computed"].IsUnknown() {
			t.Errorf("preview response %d: %+v", i, r)
		}
		if i > 0 && !r.Outputs["in"].IsUnknown() {
			t.Errorf("response %d: the unknown did not flow: %v", i, r.Outputs["in"])
		}
	}
	equal(t, "preview calls", h.log.filter("Create"), []string(nil))
	equal(t, "preview creates", len(h.log.filter("PreviewCreate")), 3)
	if h.snap != nil {
		t.Errorf("a preview changed the state")
	}
	h.mustUp(chain)
	if got := h.find("three").Inputs["in"]; !got.Equal(resource.String("real")) {
		t.Errorf("three.in = %v", got)
	}
}

func TestParallelism(t *testing.T) {
	const n, parallel = 100, 10
	h := newHarness(t)
	var inFlight, maxInFlight atomic.Int64
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(req provider.CreateRequest) (provider.CreateResponse, error) {
			cur := inFlight.Add(1)
			for {
				m := maxInFlight.Load()
				if cur <= m || maxInFlight.CompareAndSwap(m, cur) {
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
			inFlight.Add(-1)
			return provider.CreateResponse{ID: resource.ID(req.URN.Name()), Outputs: req.Inputs}, nil
		}
	})
	prog := func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := res("r"+itoa(i), nil)
				r.Parent = root
				if _, err := info.Monitor.RegisterResource(ctx, r); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		return <-errs
	}
	gauge := &pendingGauge{next: h.persist, open: map[int64]bool{}}
	h.mustUp(prog, func(o *Options) { o.Parallel, o.Journal = parallel, gauge })
	// Independent resources are created concurrently, never beyond the bound.
	if got := maxInFlight.Load(); got != parallel {
		t.Errorf("max concurrent creates = %d, want %d", got, parallel)
	}
	// Nor are more operations pending in the journal at once.
	if gauge.max > parallel {
		t.Errorf("max pending operations = %d, want at most %d", gauge.max, parallel)
	}
	equal(t, "created", len(h.log.filter("Create ")), n)
}

// pendingGauge passes entries on and measures how many operations are
// pending (begun and not ended) at most.
type pendingGauge struct {
	next snapshot.Journal
	mu   sync.Mutex
	open map[int64]bool
	max  int
}

func (g *pendingGauge) Append(e snapshot.JournalEntry) error {
	g.mu.Lock()
	if e.Kind == snapshot.EntryBegin {
		g.open[e.OperationID] = true
		g.max = max(g.max, len(g.open))
	} else {
		delete(g.open, e.OperationID)
	}
	g.mu.Unlock()
	return g.next.Append(e)
}

func TestReadResource(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.ReadF = func(req provider.ReadRequest) (provider.ReadResponse, error) {
			return provider.ReadResponse{ID: req.ID, Outputs: resource.Map{"found": resource.String(string(req.ID))}}, nil
		}
	})
	var got *ReadResourceResponse
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		got, err = info.Monitor.ReadResource(ctx, ReadResourceRequest{Type: "pkgA:index:Thing", Name: "ext", ID: "ext-7", Parent: root})
		return err
	})
	if !got.Outputs["found"].Equal(resource.String("ext-7")) {
		t.Errorf("read outputs = %v", resource.Object(got.Outputs))
	}
	ext := h.find("ext")
	if !ext.External || ext.ID != "ext-7" {
		t.Errorf("external state: %+v", ext)
	}
	// Reading is not managing: dropping it from the program never deletes it.
	h.log.take()
	h.mustUp(program())
	equal(t, "deletes", h.log.filter("Delete"), []string(nil))
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func TestImportOperation(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.ReadF = func(req provider.ReadRequest) (provider.ReadResponse, error) {
			if req.ID != "real-1" {
				return provider.ReadResponse{}, nil
			}
			return provider.ReadResponse{ID: req.ID, Inputs: resource.Map{"size": resource.Number(3)},
				Outputs: resource.Map{"size": resource.Number(3), "arn": resource.String("arn:1")}}, nil
		}
	})
	h.mustUp(program(res("kept", nil)))
	opts := h.options(nil)
	res1, err := h.run(func(ctx context.Context, o Options, base *snapshot.Snapshot) (*Result, error) {
		return Import(ctx, o, base, []ImportSpec{{Type: "pkgA:index:Thing", Name: "adopted", ID: "real-1", Protect: true}})
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "changes", res1.Changes[OpImport], 1)
	a := h.find("adopted")
	if a == nil || !a.Protect || !a.Inputs["size"].Equal(resource.Number(3)) || h.find("kept") == nil {
		t.Fatalf("after import: %s", dump(h.snap))
	}
	// The program that declares it with the same inputs sees no change.
	adopted := res("adopted", map[string]any{"size": 3})
	adopted.Protect = boolp(true)
	res2 := h.mustUp(program(res("kept", nil), adopted))
	equal(t, "after import", res2.Changes, map[Op]int{OpSame: 4})
}

func TestRefreshEventsForTheDisplay(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("kept", nil), res("gone", nil)))
	h.provider("pkgA", func(p *fakeProvider) {
		p.ReadF = func(req provider.ReadRequest) (provider.ReadResponse, error) {
			if req.URN.Name() == "gone" {
				return provider.ReadResponse{}, nil
			}
			return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
		}
	})
	if _, err := h.refresh(func(o *Options) { o.DryRun = true }); err != nil {
		t.Fatal(err)
	}
	var prelude []PreludeEvent
	outcomes := map[string]Op{}
	for _, e := range h.events {
		switch e := e.(type) {
		case PreludeEvent:
			prelude = append(prelude, e)
		case StepEvent:
			if e.Phase == StepDone && e.Op == OpRefresh && e.Logical {
				outcomes[e.URN.Name()] = e.Outcome
			}
		}
	}
	if len(prelude) != 1 || !prelude[0].Preview {
		t.Errorf("preludes = %+v, want one of a preview", prelude)
	}
	equal(t, "outcomes", outcomes, map[string]Op{"kept": OpSame, "gone": OpDelete})
}
