package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// check evaluates a check's assertions; a false one is a warning.
func (s *scopeRun) check(c *Check, ectx *hcl.EvalContext) (cty.Value, bool) {
	for _, a := range c.Assertions {
		if !s.assert(a, ectx, hcl.DiagWarning, fmt.Sprintf("Check %s failed", c.Name)) {
			return cty.DynamicVal, false
		}
	}
	return cty.NullVal(cty.DynamicPseudoType), true
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
