package eval

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// check evaluates a check's assertions; a false one is a warning, and so
// is one a preview cannot evaluate yet.
func (s *scopeRun) check(c *Check, ectx *hcl.EvalContext) (cty.Value, bool) {
	for _, a := range c.Assertions {
		if cond, ok := s.eval(ectx, a.Condition); ok && !cond.IsWhollyKnown() {
			s.r.report(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("Check %s known after the update", c.Name),
				Detail:  "The condition cannot be evaluated yet; it will be when the update runs.",
				Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ectx}})
			continue
		}
		if !s.assert(a, ectx, hcl.DiagWarning, fmt.Sprintf("Check %s failed", c.Name)) {
			return cty.DynamicVal, false
		}
	}
	return cty.NullVal(cty.DynamicPseudoType), true
}

// scopedRead reads a data source scoped to a check, reporting its errors
// as warnings. When it fails, the check that refers to it fails silently:
// its assertions are skipped, as Terraform skips them.
func (s *scopeRun) scopedRead(ctx context.Context, v *vertex, n *Invoke, ectx *hcl.EvalContext) (cty.Value, bool) {
	r := &run{prog: s.r.prog, info: s.r.info, graph: s.r.graph, types: s.r.types, configs: s.r.configs}
	inner := &scopeRun{r: r, g: s.g, parent: s.parent, prefix: s.prefix, configs: s.configs, funcs: s.funcs, states: s.states}
	val, ok := inner.invokeNode(ctx, v, n, ectx)
	for _, err := range r.steps {
		s.r.stepFailed(err) // the engine's own failures (a cancellation) stay failures
	}
	warnings := make(hcl.Diagnostics, len(r.diags.diags))
	for i, d := range r.diags.diags {
		w := *d
		w.Severity = hcl.DiagWarning
		warnings[i] = &w
	}
	s.r.report(warnings)
	return val, ok
}

// validate evaluates the validations of a configuration value; a false one
// is an error.
func (s *scopeRun) validate(c *Config, ectx *hcl.EvalContext) bool {
	ok := true
	for _, a := range c.Validations {
		ok = s.assert(a, ectx, hcl.DiagError, "Invalid value for "+c.Noun) && ok
	}
	return ok
}

// conditions evaluates preconditions or postconditions: a false one is an
// error, reported with summary.
func (s *scopeRun) conditions(as []Assertion, ectx *hcl.EvalContext, summary string) bool {
	ok := true
	for _, a := range as {
		ok = s.assert(a, ectx, hcl.DiagError, summary) && ok
	}
	return ok
}

// withSelf returns ectx with self bound to v, for postconditions.
func withSelf(ectx *hcl.EvalContext, v cty.Value) *hcl.EvalContext {
	vars := make(map[string]cty.Value, len(ectx.Variables)+1)
	for k, val := range ectx.Variables {
		vars[k] = val
	}
	vars["self"] = v
	return &hcl.EvalContext{Variables: vars, Functions: ectx.Functions}
}

// assert evaluates an assertion and reports it with severity when it is
// false, showing the values its condition refers to. A condition not known
// yet holds. It returns false when the condition could not be evaluated, or
// is false and severity is an error.
func (s *scopeRun) assert(a Assertion, ectx *hcl.EvalContext, severity hcl.DiagnosticSeverity, summary string) bool {
	val, ok := s.eval(ectx, a.Condition)
	if !ok {
		return false
	}
	cond, err := convert.Convert(val, cty.Bool)
	if err != nil {
		s.r.report(hcl.Diagnostics{errorDiag(a.Condition.Range(), "Invalid condition result",
			fmt.Sprintf("The condition must be true or false; this is a %s.", val.Type().FriendlyName()))})
		return false
	}
	cond, _ = cond.Unmark()
	if !cond.IsKnown() || cond.IsNull() || cond.True() {
		return true
	}
	msg := "The condition is false."
	if m, ok := s.eval(ectx, a.Message); ok && a.Message != nil {
		if m, _ = m.UnmarkDeep(); m.IsKnown() && !m.IsNull() && m.Type() == cty.String {
			msg = m.AsString()
		}
	}
	s.r.report(hcl.Diagnostics{{Severity: severity, Summary: summary, Detail: msg,
		Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ectx}})
	return severity != hcl.DiagError
}
