package eval

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/funcs"
	"github.com/cairn-iac/cairn/eval/values"
)

// PolicyPack is a set of rules written in a program's language, that the
// engine consults as a policy.Analyzer: a resource rule's condition is
// evaluated with the inputs of each resource it selects in scope (and
// `resource`: its urn, type, name, provider, parent and inputs), a stack
// rule's with `resources`, the list of every resource the program declared.
// A condition that is false is a violation; one not known yet (in a preview)
// holds.
type PolicyPack struct {
	Pack  string
	Rules []*Rule
	// Files are the sources of the rules, for diagnostics.
	Files map[string]*hcl.File
	Dir   string // the directory file functions resolve paths against
	// Schemas, when set, gives the inputs of the resource types: a name a
	// resource rule refers to that is neither an input of the resource's
	// type nor resource is then an error that names it. Without it, or for
	// a type it has no schema of, every name is an input, null where the
	// resource does not set it.
	Schemas SchemaSource

	fnsOnce sync.Once
	fns     map[string]function.Function
	mu      sync.Mutex
	inputs  map[string][]string // the input names of resource types, nil where not known
}

// Rule is one policy of a PolicyPack.
type Rule struct {
	Name        string
	NameRange   hcl.Range
	Description string
	Level       policy.Level
	// Stack makes the rule one over every resource (AnalyzeStack).
	Stack bool
	// Types select the resources a resource rule applies to, by type token,
	// where * stands for any text; none selects every resource.
	Types     []string
	Condition hcl.Expression
	Message   hcl.Expression // nil: the description
}

var _ policy.Analyzer = (*PolicyPack)(nil)

// Name implements policy.Analyzer.
func (p *PolicyPack) Name() string { return p.Pack }

// Close implements policy.Analyzer.
func (p *PolicyPack) Close() error { return nil }

// Analyze implements policy.Analyzer.
func (p *PolicyPack) Analyze(ctx context.Context, r policy.Resource) ([]policy.Violation, error) {
	obj := resourceObject(r)
	var inputs []string
	if r.Custom && !resource.IsProviderType(r.Type) {
		inputs = p.inputNames(ctx, r.Type)
	}
	var out []policy.Violation
	for _, rule := range p.Rules {
		if rule.Stack || rule.Level == policy.Disabled || !selects(rule.Types, r.Type) {
			continue
		}
		// An input the resource does not set is null.
		vars := map[string]cty.Value{}
		for _, name := range inputs {
			vars[name] = cty.NullVal(cty.DynamicPseudoType)
		}
		if inputs == nil {
			for _, t := range rule.variables() {
				vars[t.RootName()] = cty.NullVal(cty.DynamicPseudoType)
			}
		}
		for k, v := range r.Inputs {
			vars[k] = values.FromEngine(v)
		}
		vars["resource"] = obj
		v, err := p.violation(rule, r.Type, vars)
		if err != nil {
			return nil, fmt.Errorf("policy %s, on %s: %w", rule.Name, r.URN, err)
		}
		if v != nil {
			v.URN = r.URN
			out = append(out, *v)
		}
	}
	return out, nil
}

// AnalyzeStack implements policy.Analyzer.
func (p *PolicyPack) AnalyzeStack(_ context.Context, rs []policy.Resource) ([]policy.Violation, error) {
	list := make([]cty.Value, len(rs))
	for i, r := range rs {
		list[i] = resourceObject(r)
	}
	vars := map[string]cty.Value{"resources": cty.TupleVal(list)}
	var out []policy.Violation
	for _, rule := range p.Rules {
		if !rule.Stack || rule.Level == policy.Disabled {
			continue
		}
		v, err := p.violation(rule, "", vars)
		if err != nil {
			return nil, fmt.Errorf("stack policy %s: %w", rule.Name, err)
		}
		if v != nil {
			out = append(out, *v)
		}
	}
	return out, nil
}

// inputNames returns the names of the inputs of a resource type, as its
// package's schema lists them, or nil when it is not known.
func (p *PolicyPack) inputNames(ctx context.Context, typ string) []string {
	if p.Schemas == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if names, ok := p.inputs[typ]; ok {
		return names
	}
	var names []string
	if pkg, err := p.Schemas.Schema(ctx, resource.TypePackage(typ), ""); err == nil && pkg != nil && pkg.Resources[typ] != nil {
		names = append(slices.Sorted(maps.Keys(pkg.Resources[typ].InputProperties)), "resource")
	}
	if p.inputs == nil {
		p.inputs = map[string][]string{}
	}
	p.inputs[typ] = names
	return names
}

// violation evaluates a rule's condition and, when it is false, its
// message; typ is the type of the resource, "" for a stack rule. A
// message that cannot be evaluated does not hide the
// violation: the description (or the rule's name) stands for it, followed
// by the message's error.
func (p *PolicyPack) violation(rule *Rule, typ string, vars map[string]cty.Value) (*policy.Violation, error) {
	p.fnsOnce.Do(func() { p.fns = funcs.Functions(funcs.Options{BaseDir: p.Dir, RootDir: p.Dir}) })
	ectx := &hcl.EvalContext{Variables: vars, Functions: p.fns}
	if diags := undefinedNames(rule.Condition, vars, typ); diags.HasErrors() {
		return nil, evalError("condition", diags)
	}
	val, diags := rule.Condition.Value(ectx)
	if diags.HasErrors() {
		return nil, evalError("condition", diags)
	}
	cond, err := convert.Convert(val, cty.Bool)
	if err != nil {
		return nil, evalError("condition", hcl.Diagnostics{errorDiag(rule.Condition.Range(), "Invalid condition result",
			fmt.Sprintf("The condition must be true or false; this is a %s.", val.Type().FriendlyName()))})
	}
	cond, _ = cond.UnmarkDeep()
	if !cond.IsKnown() || cond.IsNull() || cond.True() {
		return nil, nil
	}
	v := &policy.Violation{Pack: p.Pack, Policy: rule.Name, Description: rule.Description, Message: rule.Description, Level: rule.Level}
	if v.Message == "" {
		v.Message = fmt.Sprintf("Policy %s is violated.", rule.Name)
	}
	if rule.Message != nil {
		m, diags := "", undefinedNames(rule.Message, vars, typ)
		if !diags.HasErrors() {
			m, diags = message(rule.Message, ectx)
		}
		switch {
		case diags.HasErrors():
			v.Message += " (Its message failed: " + diagnosticsText(diags) + ")"
		case m != "":
			v.Message = m
		}
	}
	return v, nil
}

// undefinedNames reports the names expr refers to that vars, the scope
// of a rule on a resource of type typ, does not define, with the closest
// names that it does.
func undefinedNames(expr hcl.Expression, vars map[string]cty.Value, typ string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		name := t.RootName()
		if _, ok := vars[name]; ok {
			continue
		}
		detail := fmt.Sprintf("%s is not an input of %s (by the names of its schema), nor resource, the resource's urn, type, name and inputs.", name, typ)
		if s := Suggest(name, slices.Collect(maps.Keys(vars))); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		diags = append(diags, errorDiag(t.SourceRange(), "Unknown name", detail))
	}
	return diags
}

// message renders a rule's message: each part of a template on its own, so
// that a secret part shows as [secret] and the rest as written, and a part
// not known yet (in a preview) as (known after apply).
func message(expr hcl.Expression, ectx *hcl.EvalContext) (string, hcl.Diagnostics) {
	if t, ok := expr.(*hclsyntax.TemplateExpr); ok && len(t.Parts) > 1 {
		var b strings.Builder
		for _, part := range t.Parts {
			s, diags := message(part, ectx)
			if diags.HasErrors() {
				return "", diags
			}
			b.WriteString(s)
		}
		return b.String(), nil
	}
	m, diags := expr.Value(ectx)
	if diags.HasErrors() {
		return "", diags
	}
	if m.ContainsMarked() && hasSecret(m) {
		return "[secret]", nil
	}
	if !m.IsWhollyKnown() {
		return "(known after apply)", nil
	}
	if m.IsNull() {
		return "", nil
	}
	s, err := convert.Convert(m, cty.String)
	if err != nil {
		return "", hcl.Diagnostics{errorDiag(expr.Range(), "Invalid message",
			fmt.Sprintf("The message must be text; this is a %s.", m.Type().FriendlyName()))}
	}
	return s.AsString(), nil
}

// evalError reports the errors of evaluating a rule's condition (see
// diagnosticsText).
func evalError(what string, diags hcl.Diagnostics) error {
	return fmt.Errorf("evaluating its %s: %s", what, diagnosticsText(diags))
}

// diagnosticsText puts errors on one line, each with its position:
// "file:line:column: what: detail".
func diagnosticsText(diags hcl.Diagnostics) string {
	var msgs []string
	for _, d := range diags.Errs() {
		text := d.Error()
		if d, ok := d.(*hcl.Diagnostic); ok {
			text = d.Summary
			if d.Detail != "" {
				text += ": " + d.Detail
			}
			if d.Subject != nil {
				text = RangeString(*d.Subject) + ": " + text
			}
		}
		msgs = append(msgs, text)
	}
	return strings.Join(msgs, "; ")
}

func hasSecret(v cty.Value) bool {
	_, pvm := v.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if _, ok := pm.Marks[values.Secret]; ok {
			return true
		}
	}
	return false
}

// resourceObject is what rules see of a resource.
func resourceObject(r policy.Resource) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"urn":      cty.StringVal(string(r.URN)),
		"type":     cty.StringVal(r.Type),
		"name":     cty.StringVal(r.Name),
		"provider": cty.StringVal(r.Provider),
		"parent":   cty.StringVal(string(r.Parent)),
		"inputs":   values.MapFromEngine(r.Inputs),
	})
}

// selects reports whether a type token matches one of the patterns.
func selects(patterns []string, typ string) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, p := range patterns {
		if MatchType(p, typ) {
			return true
		}
	}
	return false
}

// MatchType reports whether a type token matches a rule's type pattern,
// where * stands for any text.
func MatchType(pattern, typ string) bool {
	ok, _ := regexp.MatchString("^"+strings.ReplaceAll(regexp.QuoteMeta(pattern), `\*`, ".*")+"$", typ)
	return ok
}

// variables lists the traversals of the rule's condition and message.
func (r *Rule) variables() []hcl.Traversal {
	ts := r.Condition.Variables()
	if r.Message != nil {
		ts = append(ts, r.Message.Variables()...)
	}
	return ts
}

// CheckRule reports what is wrong with a rule as written: a stack rule may
// only refer to resources.
func CheckRule(r *Rule) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if !r.Stack {
		return nil
	}
	for _, t := range r.variables() {
		if t.RootName() != "resources" {
			diags = append(diags, errorDiag(t.SourceRange(), "Unknown name",
				fmt.Sprintf("A stack policy's condition can refer only to resources, the list of the stack's resources (each with urn, type, name and inputs); %s is not defined.", t.RootName())))
		}
	}
	return diags
}
