package deploy

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// scriptedAnalyzer is an in-process policy pack: it records what it is sent
// and answers with what its funcs say.
type scriptedAnalyzer struct {
	name    string
	analyze func(policy.Resource) []policy.Violation
	stack   func([]policy.Resource) []policy.Violation

	mu     sync.Mutex
	seen   map[string]resource.Map // inputs by resource name
	stacks [][]policy.Resource
}

func (a *scriptedAnalyzer) Name() string { return a.name }
func (a *scriptedAnalyzer) Close() error { return nil }

func (a *scriptedAnalyzer) Analyze(_ context.Context, r policy.Resource) ([]policy.Violation, error) {
	a.mu.Lock()
	if a.seen == nil {
		a.seen = map[string]resource.Map{}
	}
	a.seen[r.Name] = r.Inputs
	a.mu.Unlock()
	if a.analyze == nil {
		return nil, nil
	}
	return a.analyze(r), nil
}

func (a *scriptedAnalyzer) AnalyzeStack(_ context.Context, rs []policy.Resource) ([]policy.Violation, error) {
	a.mu.Lock()
	a.stacks = append(a.stacks, rs)
	a.mu.Unlock()
	if a.stack == nil {
		return nil, nil
	}
	return a.stack(rs), nil
}

// flagging reports a violation at level for every resource whose input
// "public" is true.
func flagging(level policy.Level) *scriptedAnalyzer {
	return &scriptedAnalyzer{name: "guards", analyze: func(r policy.Resource) []policy.Violation {
		if v, ok := r.Inputs["public"]; ok && v.IsBool() && v.BoolValue() {
			return []policy.Violation{{Policy: "no-public", Message: "must not be public", Level: level}}
		}
		return nil
	}}
}

func withAnalyzers(as ...policy.Analyzer) func(*Options) {
	return func(o *Options) { o.Analyzers = as }
}

// each registers every request, independently of the others' failures, and
// returns their errors joined.
func each(reqs ...RegisterRequest) func(context.Context, RunInfo) error {
	return func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		errs := make([]error, len(reqs))
		var wg sync.WaitGroup
		for i, r := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.Parent = root
				_, errs[i] = info.Monitor.RegisterResource(ctx, r)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	}
}

func (h *harness) violations() []policy.Violation {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []policy.Violation
	for _, e := range h.events {
		if p, ok := e.(PolicyEvent); ok {
			out = append(out, p.Violation)
		}
	}
	return out
}

func TestAnalyzeAdvisoryWarnsAndApplies(t *testing.T) {
	h := newHarness(t)
	a := flagging(policy.Advisory)
	res := h.mustUp(program(res("a", map[string]any{"public": true})), withAnalyzers(a))
	equal(t, "changes", res.Changes, map[Op]int{OpCreate: 3})
	equal(t, "violations", h.violations(), []policy.Violation{{Pack: "guards", Policy: "no-public",
		Message: "must not be public", URN: urnOf("a"), Level: policy.Advisory}})
	equal(t, "result", len(res.Violations), 1)
}

func TestAnalyzeDisabledIsIgnored(t *testing.T) {
	h := newHarness(t)
	res := h.mustUp(program(res("a", map[string]any{"public": true})), withAnalyzers(flagging(policy.Disabled)))
	equal(t, "violations", len(h.violations()), 0)
	equal(t, "result", len(res.Violations), 0)
}

func TestAnalyzeMandatoryFailsPreview(t *testing.T) {
	h := newHarness(t)
	_, err := h.preview(program(res("a", map[string]any{"public": true}), res("b", map[string]any{})),
		withAnalyzers(flagging(policy.Mandatory)))
	if err == nil {
		t.Fatal("preview with a mandatory violation succeeded")
	}
	// The preview still plans every step.
	equal(t, "steps", h.steps(), []string{"create a", "create b", "create default", "create proj-dev"})
	equal(t, "violations", len(h.violations()), 1)
}

func TestAnalyzeMandatoryLeavesViolatorUntouched(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("a", map[string]any{"public": false}), res("b", map[string]any{"n": 1})))
	h.log.take()

	_, err := h.up(each(
		res("a", map[string]any{"public": true}), // an update that violates
		res("b", map[string]any{"n": 2}),         // an update that does not
		res("c", map[string]any{"public": true}), // a create that violates
		res("d", map[string]any{}),               // a create that does not
	), withAnalyzers(flagging(policy.Mandatory)))
	if err == nil || !strings.Contains(err.Error(), "2 resources violate mandatory policies") {
		t.Fatalf("err = %v, want the policy violations", err)
	}
	changes := append(h.log.filter("Create"), h.log.filter("Update")...)
	slices.Sort(changes)
	equal(t, "provider changes", changes, []string{"Create d", "Update b"})
	equal(t, "a untouched", h.find("a").Inputs["public"], resource.Bool(false))
	equal(t, "b updated", h.find("b").Inputs["n"], resource.Number(2))
	if h.find("c") != nil {
		t.Error("c was created despite its mandatory violation")
	}
	if h.find("d") == nil {
		t.Error("d was not created")
	}
}

func TestAnalyzeSeesCheckedInputs(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.CheckF = func(req provider.CheckRequest) (provider.CheckResponse, error) {
			in := req.News.Copy()
			in["defaulted"] = resource.String("by-check")
			return provider.CheckResponse{Inputs: in}, nil
		}
	})
	a := &scriptedAnalyzer{name: "spy"}
	h.mustUp(program(res("a", map[string]any{"x": 1})), withAnalyzers(a))
	equal(t, "inputs", a.seen["a"], resource.Map{"x": resource.Number(1), "defaulted": resource.String("by-check")})
	if _, ok := a.seen["default"]; ok {
		t.Error("provider resources were analyzed")
	}
}

func TestAnalyzeStackSeesEveryResource(t *testing.T) {
	h := newHarness(t)
	a := &scriptedAnalyzer{name: "count", stack: func(rs []policy.Resource) []policy.Violation {
		n := 0
		for _, r := range rs {
			if r.Type == "pkgA:index:Thing" {
				n++
			}
		}
		if n > 2 {
			return []policy.Violation{{Policy: "at-most-two", Message: "too many things", Level: policy.Mandatory}}
		}
		return nil
	}}
	prog := program(res("a", nil), res("b", nil), res("c", nil))
	if _, err := h.preview(prog, withAnalyzers(a)); err == nil {
		t.Fatal("preview with a mandatory stack violation succeeded")
	}
	equal(t, "stack calls", len(a.stacks), 1)
	var names []string
	for _, r := range a.stacks[0] {
		names = append(names, r.Name)
	}
	equal(t, "stack resources", names, []string{"a", "b", "c", "proj-dev"})
	equal(t, "violation", h.violations(), []policy.Violation{{Pack: "count", Policy: "at-most-two",
		Message: "too many things", Level: policy.Mandatory}})
}

// An update refused by a stack policy deletes nothing.
func TestAnalyzeStackMandatoryKeepsDeletes(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("a", nil), res("b", nil)))
	a := &scriptedAnalyzer{name: "keep", stack: func(rs []policy.Resource) []policy.Violation {
		return []policy.Violation{{Policy: "p", Message: "no", Level: policy.Mandatory}}
	}}
	if _, err := h.up(program(res("a", nil)), withAnalyzers(a)); err == nil {
		t.Fatal("update succeeded")
	}
	if h.find("b") == nil {
		t.Error("b was deleted despite the stack policy's violation")
	}
}

// Analyzers of unrelated resources run at the same time: each Analyze waits
// until the other resource's has begun.
func TestAnalyzeConcurrently(t *testing.T) {
	h := newHarness(t)
	started := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	a := &scriptedAnalyzer{name: "rendezvous", analyze: func(r policy.Resource) []policy.Violation {
		other := map[string]string{"a": "b", "b": "a"}[r.Name]
		if other != "" {
			close(started[r.Name])
			<-started[other]
		}
		return nil
	}}
	h.mustUp(each(res("a", nil), res("b", nil)), withAnalyzers(a))
}
