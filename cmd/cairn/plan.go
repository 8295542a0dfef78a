package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/eval"
)

var (
	savePlanFlag = &cli.StringFlag{Name: "save-plan", Usage: "save what the update would do to `FILE`, for `cairn up --plan FILE`"}
	planFlag     = &cli.StringFlag{Name: "plan", Usage: "apply exactly the plan saved in `FILE` by `cairn preview --save-plan`, or nothing"}
)

// planFlagsConflict refuses --save-plan and --plan with the flags that
// would make the update something other than the whole plan.
func (r *operation) planFlagsConflict() error {
	flag := "save-plan"
	if r.kind == opUp {
		flag = "plan"
	}
	if r.c.String(flag) == "" {
		return nil
	}
	for _, other := range []string{"target", "exclude", "replace", "refresh"} {
		if r.c.IsSet(other) {
			return usageError(r.c, "--%s cannot be combined with --%s: a plan covers the whole stack; "+
				"change the program instead, then save a new plan", flag, other)
		}
	}
	return nil
}

// usePlan loads the plan of `up --plan` into the engine options and says
// which plan the update applies.
func (r *operation) usePlan() error {
	path := r.c.String("plan")
	if r.kind != opUp || path == "" {
		return nil
	}
	p, hash, err := plan.Load(path, r.s.stack, r.s.project.Name, r.secrets)
	if err != nil {
		return err
	}
	for _, s := range p.Resources {
		s.Inputs.SecretStrings(r.masker.Add)
		s.Outputs.SecretStrings(r.masker.Add)
	}
	r.opts.Plan = p
	if len(p.SeedKey) > 0 {
		r.opts.SeedKey = p.SeedKey
	}
	fmt.Fprintf(r.planOut(), "Applying plan %s (%s)\n", hash, path)
	program, config, err := r.planHashes()
	if err != nil {
		return err
	}
	if program != p.ProgramHash || config != p.ConfigHash {
		r.s.warn("the program or the stack's configuration changed since the plan was saved; every step is checked against the plan, and the update stops where it diverges")
	}
	return nil
}

// planOut is where plan messages go: stdout, unless it carries JSON.
func (r *operation) planOut() io.Writer {
	if r.c.Bool("json") {
		return r.s.stderr
	}
	return r.s.stdout
}

// planBase describes the stack's state as stored, for a plan's base.
func (r *operation) planBase(ctx context.Context) (plan.Base, error) {
	recs, err := r.s.backend.History(ctx, r.ref)
	if err != nil {
		return plan.Base{}, err
	}
	version := 0
	if len(recs) > 0 {
		version = recs[0].Version
	}
	u, err := r.s.backend.Export(ctx, r.ref, backend.ExportOptions{Secrets: r.secrets})
	if err != nil {
		return plan.Base{}, err
	}
	return plan.BaseOf(version, u)
}

// checkPlanBase refuses to apply a plan made against another state than
// the stack's current one. It runs under the stack's lock.
func (r *operation) checkPlanBase(ctx context.Context) error {
	if r.opts.Plan == nil {
		return nil
	}
	current, err := r.planBase(ctx)
	if err != nil {
		return err
	}
	if err := r.opts.Plan.Base.Since(current); err != nil {
		return &exitError{code: 1, msg: fmt.Sprintf("update refused, nothing was changed: %v", err)}
	}
	return nil
}

// planHashes hashes the program's files (for YAML and HCL programs) and
// the stack's configuration file.
func (r *operation) planHashes() (program, config string, err error) {
	files := map[string][]byte{}
	if p, ok := r.opts.Program.(*eval.Program); ok {
		for name, f := range p.Files {
			files[name] = f.Bytes
		}
	}
	cfg, err := os.ReadFile(r.s.project.StackConfigPath(r.s.stack))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", "", err
	}
	return plan.HashFiles(files), plan.Hash(cfg), nil
}

// savePlan saves the plan of a preview made against base and prints its
// hash, which the pull-request comment (--markdown) shows.
func (r *operation) savePlan(base plan.Base, res *deploy.Result) error {
	path := r.c.String("save-plan")
	program, config, err := r.planHashes()
	if err != nil {
		return err
	}
	p := &plan.Plan{Stack: r.s.stack, Project: r.s.project.Name, Base: base, ProgramHash: program, ConfigHash: config,
		SeedKey: r.opts.SeedKey, Resources: res.Planned}
	hash, err := plan.Save(path, p, r.secrets)
	if err != nil {
		return err
	}
	if r.c.Bool("markdown") {
		fmt.Fprintf(r.s.stdout, "\nPlan `%s`, saved as `%s`; `cairn up --plan` applies exactly this.\n", hash, path)
		return nil
	}
	fmt.Fprintf(r.planOut(), "Saved the plan to %s (%s); apply it with `cairn up --plan %s`\n", path, hash, path)
	return nil
}

// planRefused says, of a preview that failed under a plan, that the update
// was refused before it changed anything.
func (r *operation) planRefused(err error) error {
	if r.opts.Plan == nil {
		return err
	}
	return &exitError{code: 1, msg: "update refused, nothing was changed: " + err.Error()}
}

// planPreviewAside sends the display of the preview that checks a plan to
// stderr when stdout carries JSON, so that stdout holds one document, the
// update's; the result restores stdout.
func (r *operation) planPreviewAside() (restore func()) {
	out := r.s.stdout
	if r.opts.Plan != nil && r.c.Bool("json") {
		r.s.stdout = r.s.stderr
	}
	return func() { r.s.stdout = out }
}
