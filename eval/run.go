package eval

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// Run implements deploy.Program: it checks the program (names, cycles,
// schemas, configuration), registers the stack resource, evaluates every
// node as soon as what it refers to is known, registering resources with
// info.Monitor, and registers the stack's outputs. It returns a
// *DiagnosticsError when the program has errors, and the engine's own
// errors for failed resource operations.
func (p *Program) Run(ctx context.Context, info deploy.RunInfo) error {
	r, diags := p.prepare(ctx, info)
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && p.Warn != nil {
			p.Warn(d)
		}
	}
	if diags.HasErrors() {
		return &DiagnosticsError{Diags: SortDiagnostics(diags), Files: p.Files}
	}
	stack, err := info.Monitor.RegisterResource(ctx, deploy.RegisterRequest{
		Type: resource.RootStackType, Name: info.Project + "-" + info.Stack,
	})
	if err != nil {
		return fmt.Errorf("registering the stack resource: %w", err)
	}
	root := r.newScopeRun(ctx, r.graph, stack.URN, r.configs)
	root.start(ctx)
	root.wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if outs, ok := root.outputs(); ok && !r.failed() {
		for name, v := range outs {
			if p.Dialect.OmitNullOutputs && (v.IsNull() || v.IsSecret() && v.SecretElement().IsNull()) {
				delete(outs, name)
			}
		}
		if err := info.Monitor.RegisterResourceOutputs(ctx, stack.URN, outs); err != nil {
			r.diags.add(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot register the stack's outputs", Detail: err.Error()}})
		}
	}
	return r.result()
}

// Check returns the diagnostics the program would stop at (and warn about)
// before registering anything: unknown names, cycles, schema type errors and
// missing configuration. Run checks too; Check lets a command report them
// without running.
func (p *Program) Check(ctx context.Context, project string, config map[string]resource.Value) hcl.Diagnostics {
	_, diags := p.prepare(ctx, deploy.RunInfo{Project: project, Config: config})
	return SortDiagnostics(diags)
}

// Analyze returns the diagnostics of the program itself, whatever stack
// runs it: Check without the configuration's (unknown names, cycles and
// schema type errors), for editors, which have no stack.
func (p *Program) Analyze(ctx context.Context) hcl.Diagnostics {
	return SortDiagnostics(p.analyze(ctx).diags)
}

// analysis is what is known of a program before it runs; it is computed
// once per Program.
type analysis struct {
	graph *graph
	types *typeInfo
	diags hcl.Diagnostics
}

// analyze builds the graph and checks the program against its schemas, the
// first time it is called.
func (p *Program) analyze(ctx context.Context) *analysis {
	p.analyzed.Do(func() {
		a := &analysis{}
		p.analysis = a
		if p.Root == nil || p.Root.Resolver == nil {
			a.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty program", Detail: "The program has no root scope to evaluate."}}
			return
		}
		p.prefetch(ctx)
		a.graph, a.diags = buildGraph(p.Root)
		a.types, a.diags = checkTypes(ctx, p, a.graph, a.diags)
	})
	return p.analysis
}

// run is one evaluation of a program.
type run struct {
	prog    *Program
	info    deploy.RunInfo
	graph   *graph
	types   *typeInfo
	configs map[*Config]cty.Value
	diags   diagSink

	mu    sync.Mutex
	steps []error // failures the engine reported
	fail  bool
}

// prepare analyzes the program and resolves the root configuration.
func (p *Program) prepare(ctx context.Context, info deploy.RunInfo) (*run, hcl.Diagnostics) {
	a := p.analyze(ctx)
	diags := append(hcl.Diagnostics(nil), a.diags...)
	r := &run{prog: p, info: info, graph: a.graph, types: a.types, configs: map[*Config]cty.Value{}}
	r.diags.warn = p.Warn
	if a.graph == nil {
		return r, diags
	}
	for _, n := range a.graph.nodes {
		if c, ok := n.(*Config); ok {
			v, ds := ConfigValue(c, info.Project, info.Config)
			diags = append(diags, ds...)
			if _, set := info.Config[c.FullKey(info.Project)]; c.Deprecated != "" && (set || c.Over != nil || c.Under != nil) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("Deprecated variable %s given a value", c.Name),
					Detail: c.Deprecated, Subject: c.DeclRange.Ptr()})
			}
			r.configs[c] = ephemeralIf(v, c.Ephemeral)
		}
	}
	return r, diags
}

// report records diagnostics; errors fail the run.
func (r *run) report(ds hcl.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	r.diags.add(ds)
	if ds.HasErrors() {
		r.mu.Lock()
		r.fail = true
		r.mu.Unlock()
	}
}

// stepFailed records an error of the engine, which has reported it.
func (r *run) stepFailed(err error) {
	r.mu.Lock()
	r.steps = append(r.steps, err)
	r.fail = true
	r.mu.Unlock()
}

func (r *run) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fail
}

// result is the run's error: its diagnostics, or else the errors the
// engine reported. (The engine treats step errors as reported and other
// errors as the program's own, which stop deletions.)
func (r *run) result() error {
	if errs := r.diags.errors(); len(errs) > 0 {
		return &DiagnosticsError{Diags: errs, Files: r.prog.Files}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return errors.Join(r.steps...)
}

// isEngineFailure reports whether err is a failure the engine reports itself
// (a failed step, or a cancelled deployment).
func isEngineFailure(err error) bool {
	var se *deploy.StepError
	return errors.As(err, &se) || errors.Is(err, deploy.ErrCancelled) || errors.Is(err, context.Canceled)
}

// pulumiValue is the value of the builtin `pulumi` in a scope.
func (r *run) pulumiValue(s *Scope) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"cwd":           cty.StringVal(s.Dir),
		"project":       cty.StringVal(r.info.Project),
		"stack":         cty.StringVal(r.info.Stack),
		"organization":  cty.StringVal(r.info.Organization),
		"rootDirectory": cty.StringVal(r.prog.RootDir),
	})
}

// registerFailure reports an error of a registration, unless the engine
// reported it already.
func (r *run) registerFailure(d *Decl, what string, err error) {
	if isEngineFailure(err) {
		r.stepFailed(err)
		return
	}
	r.report(hcl.Diagnostics{errorDiag(d.NameRange, fmt.Sprintf("Cannot %s %s", what, d), err.Error())})
}

// secretIf marks v secret when secret is set.
func secretIf(v cty.Value, secret bool) cty.Value {
	if secret {
		return v.Mark(values.Secret)
	}
	return v
}
