package tftest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/eval/funcs"
)

// Status is the verdict of a run or a file, as tofu test -json names it.
type Status string

const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Error Status = "error"
	Skip  Status = "skip"
)

// Runner runs test files against the configuration in Dir.
type Runner struct {
	Dir  string   // the configuration under test
	Vars []string // -var NAME=VALUE and -var-file=FILE arguments, as cairn takes them
	CLI  *CLI
	// Verbose keeps each run's plan or state in its result.
	Verbose bool
}

// FileResult is what running one test file found.
type FileResult struct {
	File   *File
	Status Status
	Runs   []*RunResult
	Diags  hcl.Diagnostics // of the file as a whole: parse errors, cleanup
}

// RunResult is a run's verdict, with its failures (assertions at their
// position in the test file) and, when verbose, its plan or state.
type RunResult struct {
	Run    *Run
	Status Status
	Diags  hcl.Diagnostics
	Detail string
}

// stack is a throwaway stack of a file: one per module the runs apply.
type stack struct {
	dir    string // the work copy of the module
	config *Config
}

// RunFile runs a parsed test file's runs in order, each against the
// stack of its module, and destroys the stacks when it ends, the last
// made first, whatever happened.
func (r *Runner) RunFile(ctx context.Context, f *File) *FileResult {
	res := &FileResult{File: f, Status: Pass}
	configs := map[string]*Config{}
	for _, mod := range append([]*Module{nil}, modulesOf(f)...) {
		src, dir := "", r.Dir
		if mod != nil {
			src, dir = mod.Source, filepath.Join(r.Dir, mod.Source)
		}
		if _, ok := configs[src]; ok {
			continue
		}
		c, err := LoadConfig(dir)
		if err != nil {
			rng := hcl.Range{Filename: f.Name}
			if mod != nil {
				rng = mod.Range
			}
			res.Diags = append(res.Diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read the module", Detail: err.Error(), Subject: &rng})
			res.Status = Error
			return res
		}
		configs[src] = c
	}
	if diags := Check(f, configs); diags.HasErrors() {
		res.Diags, res.Status = diags, Error
		return res
	}
	work, err := r.CLI.workspace()
	if err != nil {
		res.Diags, res.Status = append(res.Diags, fileError(f, "Cannot make the test's stacks", err.Error())), Error
		return res
	}
	stacks := map[string]*stack{}
	var order []*stack
	outputs := map[string]cty.Value{}
	failed := false
	for _, run := range f.Runs {
		if failed {
			res.Runs = append(res.Runs, &RunResult{Run: run, Status: Skip})
			continue
		}
		src := ""
		if run.Module != nil {
			src = run.Module.Source
		}
		st := stacks[src]
		if st == nil {
			st = &stack{config: configs[src]}
			if st.dir, err = work.stack(ctx, configs[src].Dir, len(order)); err != nil {
				res.Runs = append(res.Runs, &RunResult{Run: run, Status: Error, Diags: hcl.Diagnostics{runError(run, "Cannot make the run's stack", err.Error())}})
				failed = true
				continue
			}
			stacks[src] = st
			order = append(order, st)
		}
		rr := r.run(ctx, work, f, run, st, outputs)
		res.Runs = append(res.Runs, rr)
		// An error (not a failed assertion) stops the file, as in tofu test.
		failed = rr.Status == Error
	}
	for i := len(order) - 1; i >= 0; i-- {
		if left := work.destroy(ctx, order[i].dir); left != "" {
			res.Diags = append(res.Diags, fileError(f, "Resources left behind", left))
			res.Status = Error
		}
	}
	if res.Status != Error || len(res.Diags) == 0 {
		work.remove()
	}
	// The file's verdict is its worst run's: error, then fail.
	for _, rr := range res.Runs {
		if rr.Status == Error || (rr.Status == Fail && res.Status == Pass) {
			res.Status = rr.Status
		}
	}
	return res
}

// modulesOf lists the modules a file's runs apply instead of the
// configuration.
func modulesOf(f *File) []*Module {
	var out []*Module
	for _, r := range f.Runs {
		if r.Module != nil {
			out = append(out, r.Module)
		}
	}
	return out
}

// evalContext is what a test file's expressions see: the outputs of the
// runs before (run.NAME.X), the file's variables (var.X), and
// Terraform's functions.
func (r *Runner) evalContext(outputs map[string]cty.Value, vars map[string]cty.Value) *hcl.EvalContext {
	runs := map[string]cty.Value{}
	for name, o := range outputs {
		runs[name] = o
	}
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"run": cty.ObjectVal(runs), "var": cty.ObjectVal(vars)},
		Functions: funcs.Functions(funcs.Options{BaseDir: r.Dir, RootDir: r.Dir}),
	}
}

// variables evaluates the file's variables, then the run's, over the
// outputs of the runs before.
func (r *Runner) variables(f *File, run *Run, outputs map[string]cty.Value) (map[string]cty.Value, hcl.Diagnostics) {
	vars := map[string]cty.Value{}
	var diags hcl.Diagnostics
	for _, set := range []map[string]*hcl.Attribute{f.Variables, run.Variables} {
		ctx := r.evalContext(outputs, copyMap(vars))
		for name, a := range set {
			v, d := a.Expr.Value(ctx)
			diags = append(diags, d...)
			vars[name] = v
		}
	}
	return vars, diags
}

func copyMap(m map[string]cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// run runs one run block against its stack.
func (r *Runner) run(ctx context.Context, work *workspace, f *File, run *Run, st *stack, outputs map[string]cty.Value) *RunResult {
	rr := &RunResult{Run: run, Status: Pass}
	vars, diags := r.variables(f, run, outputs)
	if diags.HasErrors() {
		rr.Status, rr.Diags = Error, diags
		return rr
	}
	evalCtx := r.evalContext(outputs, vars)
	checks, ends, diags := checksFor(f, run, st.config, evalCtx)
	if diags.HasErrors() {
		rr.Status, rr.Diags = Error, diags
		return rr
	}
	if err := os.WriteFile(filepath.Join(st.dir, assertFile+st.config.Ext), []byte(checks), 0o600); err != nil {
		rr.Status, rr.Diags = Error, hcl.Diagnostics{runError(run, "Cannot write the run's assertions", err.Error())}
		return rr
	}
	plain, override, diags := providerFiles(f, run, st.config)
	if diags.HasErrors() {
		rr.Status, rr.Diags = Error, diags
		return rr
	}
	for name, text := range map[string]string{providersFile: plain, providersOverride: override} {
		if err := writeOrRemove(filepath.Join(st.dir, name+st.config.Ext), text); err != nil {
			rr.Status, rr.Diags = Error, hcl.Diagnostics{runError(run, "Cannot write the run's providers", err.Error())}
			return rr
		}
	}
	if diags := writeMocks(st.dir, f, run, st.config, evalCtx); diags.HasErrors() {
		rr.Status, rr.Diags = Error, diags
		return rr
	}
	varFile, err := writeVars(st.dir, vars, st.config)
	if err != nil {
		rr.Status, rr.Diags = Error, hcl.Diagnostics{runError(run, "Cannot write the run's variables", err.Error())}
		return rr
	}
	args := r.opArgs(run, st, varFile)
	doc, err := work.operate(ctx, st.dir, args)
	if err != nil {
		rr.Status, rr.Diags = Error, hcl.Diagnostics{runError(run, "The run failed", err.Error())}
		return rr
	}
	if r.Verbose {
		rr.Detail = doc.steps()
	}
	judge(rr, run, st.config, doc, ends)
	if rr.Status != Error && run.Command == "apply" {
		o, err := work.outputs(ctx, st.dir)
		if err != nil {
			rr.Status, rr.Diags = Error, append(rr.Diags, runError(run, "Cannot read the run's outputs", err.Error()))
			return rr
		}
		outputs[run.Name] = o
	}
	return rr
}

// opArgs are the cairn command and flags that carry out a run.
func (r *Runner) opArgs(run *Run, st *stack, varFile string) []string {
	var args []string
	switch {
	case run.Plan.Mode == "refresh-only" && run.Command == "apply":
		return []string{"refresh", "--yes", "--json"}
	case run.Plan.Mode == "refresh-only":
		return []string{"refresh", "--preview-only", "--json"}
	case run.Command == "apply":
		args = []string{"up", "--yes", "--json"}
	default:
		args = []string{"preview", "--json"}
	}
	if run.Plan.Refresh {
		args = append(args, "--refresh")
	}
	for _, tr := range run.Plan.Target {
		args = append(args, "--target", urnGlob(tr))
	}
	for _, tr := range run.Plan.Replace {
		args = append(args, "--replace", urnGlob(tr))
	}
	args = append(args, r.Vars...)
	return append(args, "-var-file="+varFile)
}

// urnGlob matches the URNs of the resource (or instance) a reference of
// the root module names.
func urnGlob(tr hcl.Traversal) string {
	addr := Address(tr)
	name := addr[strings.LastIndex(addr, ".")+1:]
	if len(tr) > 2 {
		if ix, ok := tr[len(tr)-1].(hcl.TraverseIndex); ok {
			switch k := ix.Key; k.Type() {
			case cty.String:
				name += fmt.Sprintf("[%q]", k.AsString())
			case cty.Number:
				name += fmt.Sprintf("[%s]", k.AsBigFloat().String())
			}
		}
	}
	return "urn:pulumi:" + stackName + "::**::" + name
}

// writeVars writes the run's variables into a variables file of the
// work copy; those the configuration does not declare are the test's own.
func writeVars(dir string, vars map[string]cty.Value, c *Config) (string, error) {
	obj := map[string]cty.Value{}
	for name, v := range vars {
		if c.Objects["var."+name] != nil {
			obj[name] = v
		}
	}
	v, _ := cty.ObjectVal(obj).UnmarkDeep()
	data, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return "", err
	}
	name := "cairn_tftest.tfvars.json"
	return name, os.WriteFile(filepath.Join(dir, name), data, 0o600)
}

func runError(run *Run, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: run.DeclRange.Ptr()}
}

func fileError(f *File, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &hcl.Range{Filename: f.Name, Start: hcl.InitialPos, End: hcl.InitialPos}}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// The files of a work copy holding the provider blocks a run gives the
// configuration: new ones, and those replacing the configuration's.
const (
	providersFile     = "zz_cairn_tftest_providers"
	providersOverride = "zz_cairn_tftest_override"
)

// writeOrRemove writes text into the file, or removes the file when
// there is nothing to write.
func writeOrRemove(path, text string) error {
	if text == "" {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	return os.WriteFile(path, []byte(text), 0o600)
}
