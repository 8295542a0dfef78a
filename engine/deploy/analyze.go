package deploy

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// ViolationError is a resource's (or the stack's) failure to comply with
// mandatory policies: the resource is not created, updated or replaced.
type ViolationError struct {
	Violations []policy.Violation
}

func (e *ViolationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = fmt.Sprintf("%s/%s: %s", v.Pack, v.Policy, v.Message)
	}
	return "mandatory policy violated (" + strings.Join(parts, "; ") + "); nothing was changed for it: comply with the policy, or have its enforcement level lowered"
}

// analyze sends a resource's checked inputs to every analyzer, at once, and
// reports what they find. It fails with a *ViolationError on a mandatory
// violation, unless previewing, where the preview fails at its end instead.
func (d *deployment) analyze(ctx context.Context, s *resource.State) error {
	if len(d.opts.Analyzers) == 0 || resource.IsProviderType(s.Type) {
		return nil
	}
	r := policyResource(s)
	r.ProviderInputs = d.reg.configOf(s.Provider)
	d.mu.Lock()
	d.analyzed = append(d.analyzed, r)
	d.mu.Unlock()
	done := d.plan()
	vs, err := d.eachAnalyzer(func(a policy.Analyzer) ([]policy.Violation, error) {
		return a.Analyze(context.WithoutCancel(ctx), r)
	})
	done()
	if err != nil {
		return err
	}
	return d.enforce(s.URN, vs)
}

// analyzeStack sends every resource the program declared to every analyzer.
func (d *deployment) analyzeStack(ctx context.Context) error {
	if len(d.opts.Analyzers) == 0 {
		return nil
	}
	d.mu.Lock()
	rs := append([]policy.Resource(nil), d.analyzed...)
	d.mu.Unlock()
	sort.Slice(rs, func(i, j int) bool { return rs[i].URN < rs[j].URN })
	vs, err := d.eachAnalyzer(func(a policy.Analyzer) ([]policy.Violation, error) {
		return a.AnalyzeStack(context.WithoutCancel(ctx), rs)
	})
	if err != nil {
		return err
	}
	return d.enforce("", vs)
}

// eachAnalyzer calls every analyzer concurrently and gathers their
// violations in the analyzers' order.
func (d *deployment) eachAnalyzer(call func(policy.Analyzer) ([]policy.Violation, error)) ([]policy.Violation, error) {
	as := d.opts.Analyzers
	found := make([][]policy.Violation, len(as))
	errs := make([]error, len(as))
	var wg sync.WaitGroup
	for i, a := range as {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i], errs[i] = call(a)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("policy pack %s: %w", a.Name(), errs[i])
			}
		}()
	}
	wg.Wait()
	var out []policy.Violation
	for i := range as {
		if errs[i] != nil {
			return nil, errs[i]
		}
		for _, v := range found[i] {
			if v.Pack == "" {
				v.Pack = as[i].Name()
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// enforce reports violations (of urn's resource, or of the stack when urn is
// empty) and returns the mandatory ones as a *ViolationError, except in a
// preview, which only counts them.
func (d *deployment) enforce(urn resource.URN, vs []policy.Violation) error {
	var mandatory []policy.Violation
	for _, v := range vs {
		if v.Level == policy.Disabled {
			continue
		}
		if v.Level == "" {
			v.Level = policy.Advisory
		}
		if v.URN == "" {
			v.URN = urn
		}
		d.mu.Lock()
		d.violations = append(d.violations, v)
		d.mu.Unlock()
		d.opts.emit(PolicyEvent{Violation: v, Preview: d.opts.DryRun})
		if v.Level == policy.Mandatory {
			mandatory = append(mandatory, v)
		}
	}
	if len(mandatory) == 0 || d.opts.DryRun {
		return nil
	}
	return &ViolationError{Violations: mandatory}
}

// mandatoryViolations counts the mandatory violations found so far.
func (d *deployment) mandatoryViolations() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, v := range d.violations {
		if v.Level == policy.Mandatory {
			n++
		}
	}
	return n
}

func policyResource(s *resource.State) policy.Resource {
	return policy.Resource{
		URN: s.URN, Type: s.Type, Name: s.URN.Name(), Custom: s.Custom, Parent: s.Parent, Provider: s.Provider,
		Inputs: s.Inputs, Protect: s.Protect, IgnoreChanges: s.IgnoreChanges,
		Dependencies: s.Dependencies, PropertyDependencies: s.PropertyDependencies,
	}
}
