package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/display"
	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/childenv"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
	"github.com/cairn-iac/cairn/lang/yaml"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/monitor"
	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// opKind is an operation of the engine the CLI runs.
type opKind string

const (
	opPreview opKind = "preview"
	opUp      opKind = "update"
	opRefresh opKind = "refresh"
	opDestroy opKind = "destroy"
	opImport  opKind = "import"
)

var (
	yesFlag      = &cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "go ahead without asking (required off a terminal)"}
	jsonFlag     = &cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print the result as JSON, in the shape of Pulumi's preview --json"}
	diffFlag     = &cli.BoolFlag{Name: "diff", Usage: "show every property of changed resources"}
	expectFlag   = &cli.BoolFlag{Name: "expect-no-changes", Usage: "fail if anything would change"}
	targetFlag   = &cli.StringSliceFlag{Name: "target", Aliases: []string{"t"}, Usage: "operate only on the resource with this `URN` (globs * and **; repeatable)"}
	targetDeps   = &cli.BoolFlag{Name: "target-dependents", Usage: "include the dependents of targeted resources"}
	excludeFlag  = &cli.StringSliceFlag{Name: "exclude", Aliases: []string{"x"}, Usage: "leave the resource with this `URN` alone (globs; repeatable)"}
	replaceFlag  = &cli.StringSliceFlag{Name: "replace", Usage: "replace the resource with this `URN` even if it has not changed (repeatable)"}
	parallelFlag = &cli.IntFlag{Name: "parallel", Aliases: []string{"p"}, Usage: "run at most `N` provider operations at once", DefaultText: "4 × CPUs"}
	refreshFlag  = &cli.BoolFlag{Name: "refresh", Aliases: []string{"r"}, Usage: "refresh the state from the providers first"}
	fastFlag     = &cli.BoolFlag{Name: "no-fast-path", Usage: "call every provider's Check and Diff, even for resources unchanged since their last step (see also CAIRN_FAST_PATH)"}
	secretsFlag  = &cli.BoolFlag{Name: "show-secrets", Usage: "show secret values in plaintext"}
	samesFlag    = &cli.BoolFlag{Name: "show-sames", Usage: "show resources that do not change"}
	continueFlag = &cli.BoolFlag{Name: "continue-on-error", Usage: "keep going after a failure, skipping only what depends on it"}
	emptyFlag    = &cli.BoolFlag{Name: "allow-empty", Usage: "let a program that declares no resources delete every resource of the stack (cairn destroy is the usual way)"}
)

func previewCommand() *cli.Command {
	return &cli.Command{
		Name:  "preview",
		Usage: "show what an update would change, changing nothing",
		UsageText: "cairn preview\ncairn preview --diff\ncairn preview --json > plan.json\n" +
			"cairn preview --markdown > comment.md   # a pull-request comment\ncairn preview --expect-no-changes   # drift check",
		Flags: append([]cli.Flag{jsonFlag, &cli.BoolFlag{Name: "markdown", Usage: "print a pull-request comment: summary table, per-resource diffs, Mermaid graph"},
			diffFlag, expectFlag, refreshFlag, fastFlag, targetFlag, targetDeps, excludeFlag, replaceFlag, parallelFlag, secretsFlag, samesFlag, emptyFlag, savePlanFlag, policyFlag, policyPackFlag, policyConfFlag}, varFlags()...),
		Action: func(c *cli.Context) error { return operate(c, opPreview) },
	}
}

func upCommand() *cli.Command {
	return &cli.Command{
		Name:    "up",
		Aliases: []string{"update"},
		Usage:   "create or update the stack's resources to match the program",
		UsageText: "cairn up                 # preview, ask, apply (on a terminal)\ncairn up --yes           # apply without asking\n" +
			"cairn up --target 'urn:pulumi:dev::web::random:index/randomPet:RandomPet::name' --yes",
		Flags: append([]cli.Flag{yesFlag, &cli.BoolFlag{Name: "skip-preview", Aliases: []string{"f"}, Usage: "do not preview first"},
			parallelFlag, jsonFlag, diffFlag, expectFlag, refreshFlag, fastFlag, targetFlag, targetDeps, excludeFlag, replaceFlag,
			continueFlag, secretsFlag, samesFlag, emptyFlag, policyFlag, policyPackFlag, policyConfFlag, &cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "a `TEXT` kept in the stack's history"}, planFlag}, varFlags()...),
		Action: func(c *cli.Context) error { return operate(c, opUp) },
	}
}

func refreshCommand() *cli.Command {
	return &cli.Command{
		Name:  "refresh",
		Usage: "read every resource from its provider and record what exists",
		UsageText: "cairn refresh --yes\ncairn refresh --preview-only --expect-no-changes   # drift check\n" +
			"cairn refresh --clear-pending-creates --yes\ncairn refresh --import-pending-creates URN --import-pending-creates ID --yes",
		Flags: []cli.Flag{yesFlag, &cli.BoolFlag{Name: "preview-only", Usage: "show what changed without recording it"},
			expectFlag, &cli.BoolFlag{Name: "clear-pending-creates", Usage: "forget creates an interrupted run left unfinished"},
			&cli.StringSliceFlag{Name: "import-pending-creates", Usage: "adopt an interrupted create: give its `URN`, then again its provider ID"},
			targetFlag, parallelFlag, jsonFlag, diffFlag, secretsFlag},
		Action: func(c *cli.Context) error { return operate(c, opRefresh) },
	}
}

func destroyCommand() *cli.Command {
	return &cli.Command{
		Name:      "destroy",
		Usage:     "delete every resource of the stack",
		UsageText: "cairn destroy --yes\ncairn destroy --target URN --target-dependents --yes",
		Flags:     append([]cli.Flag{yesFlag, &cli.BoolFlag{Name: "preview-only", Usage: "show what would be deleted"}, targetFlag, targetDeps, parallelFlag, jsonFlag, continueFlag}, varFlags()...),
		Action:    func(c *cli.Context) error { return operate(c, opDestroy) },
	}
}

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "adopt an existing resource into the stack",
		ArgsUsage: "TYPE NAME ID",
		UsageText: "cairn import random:index/randomPet:RandomPet pet old-pet-name --yes",
		Flags: []cli.Flag{yesFlag, &cli.StringFlag{Name: "parent", Usage: "the `URN` of the parent resource"},
			&cli.StringFlag{Name: "provider", Usage: "the provider `REFERENCE` (urn::id) to import with"},
			&cli.BoolFlag{Name: "protect", Value: true, Usage: "protect the imported resource; --protect=false does not"}, jsonFlag},
		Action: func(c *cli.Context) error { return operate(c, opImport) },
	}
}

// operation is one operation of the CLI: its session, stack, secrets and options.
type operation struct {
	s       *session
	c       *cli.Context
	kind    opKind
	ref     backend.StackRef
	secrets secrets.Manager
	opts    deploy.Options
	host    *host.Resolver
	relay   diagRelay
	// masker learns every secret of the run and masks it in what the
	// operation prints (unless --show-secrets) and records.
	masker *secrets.Masker
	// heldLock is the stack's lock while apply holds it, which a third
	// Ctrl-C (on the signal goroutine) releases before exiting.
	heldLock atomic.Pointer[backend.Lock]
	// base is the state a preview reads, while the program loads.
	base func() (*snapshot.Snapshot, error)
	// lazy is the manager a preview reads the state with, its secrets
	// decrypted when first needed; stopLazy stops the preview when one
	// cannot be.
	lazy     *secrets.Lazy
	stopLazy atomic.Pointer[context.CancelCauseFunc]
}

func operate(c *cli.Context, kind opKind) (err error) {
	if c.IsSet("parallel") && c.Int("parallel") < 1 {
		return usageError(c, "--parallel %d: run at least 1 operation at once", c.Int("parallel"))
	}
	if c.Bool("json") && c.Bool("markdown") {
		return usageError(c, "--json and --markdown each print the whole result; choose one")
	}
	s, err := newSession(c, true)
	if err != nil {
		return err
	}
	if err := s.useStack(); err != nil {
		return err
	}
	s.vars = s.commandVars(c)
	r := &operation{s: s, c: c, kind: kind, ref: s.ref(s.stack), masker: secrets.NewMasker()}
	defer r.close()
	if err := r.planFlagsConflict(); err != nil {
		return err
	}
	if !r.showSecrets() {
		s.stderr = r.masker.Writer(s.stderr)
		defer func() { err = r.masked(err) }()
	}
	if err := r.prepare(); err != nil {
		if de := (*eval.DiagnosticsError)(nil); errors.As(err, &de) {
			if r.document() {
				// The document (--json, --markdown) holds the diagnostics.
				d, derr := r.newDisplay(display.OperationPreview)
				if derr != nil {
					return derr
				}
				r.reportProgramErrors(d, err)
				d.Handle(deploy.SummaryEvent{Preview: true, Error: "the program has errors"})
				if cerr := d.Close(); cerr != nil {
					return cerr
				}
			}
			return r.failure(kind, err)
		}
		return err
	}
	if err := r.usePlan(); err != nil {
		return err
	}
	ctx, stop := r.signals()
	defer stop()
	if kind == opPreview || (kind != opUp && c.Bool("preview-only")) {
		return r.preview(ctx)
	}
	return r.apply(ctx)
}

// prepare loads the configuration and secrets and builds the engine options.
func (r *operation) prepare() error {
	if path := os.Getenv(tfplugin.MocksEnv); path != "" {
		r.s.warn(fmt.Sprintf("%s is set (to %s): Terraform providers are answered by the mocks of that file, not called. "+
			"cairn test sets it for the runs of Terraform test files; unset it to deploy for real.", tfplugin.MocksEnv, path))
	}
	cfg, err := r.s.stackConfig()
	if err != nil {
		return err
	}
	if r.secrets, err = r.s.secrets(cfg); err != nil {
		return err
	}
	values, err := cfg.Values(r.secrets)
	if err != nil {
		return err
	}
	// The passphrase reaches a child's output only when children inherit
	// it (CAIRN_CHILD_ENV_ALLOW names it); masking it otherwise would blank
	// every output that holds a short passphrase as a word ("demo").
	if childenv.Inherited("CAIRN_CONFIG_PASSPHRASE") || childenv.Inherited("PULUMI_CONFIG_PASSPHRASE") {
		r.masker.Add(r.s.passphrase)
	}
	resource.Map(values).SecretStrings(r.masker.Add)
	if r.kind == opPreview {
		// A preview reads the state without the lock: read it (on the
		// other core) while the program and its plugins load.
		ctx, ref, sm := r.c.Context, r.ref, r.secrets
		if sm != nil && r.c.String("save-plan") == "" {
			// Nothing of the state is decrypted until it is needed: a
			// no-change preview derives no key.
			r.lazy = &secrets.Lazy{Manager: sm, Learn: r.masker.Add, Fail: func(err error) {
				if stop := r.stopLazy.Load(); stop != nil {
					(*stop)(err)
				}
			}}
			sm = r.lazy
		}
		r.base = sync.OnceValues(func() (*snapshot.Snapshot, error) { return r.s.backend.Snapshot(ctx, ref, sm) })
		go r.base()
	}
	if r.host, err = r.s.providerHost(r.secrets, &r.relay); err != nil {
		return err
	}
	r.opts = deploy.Options{
		Project: r.s.project.Name, Stack: r.s.stack, Organization: backend.Organization, Config: values, Host: r.host,
		Parallel: r.c.Int("parallel"), Targets: r.c.StringSlice("target"), TargetDependents: r.c.Bool("target-dependents"),
		Excludes: r.c.StringSlice("exclude"), Replaces: r.c.StringSlice("replace"),
		ContinueOnError: r.c.Bool("continue-on-error"), ExpectNoChanges: r.c.Bool("expect-no-changes"), AllowEmpty: r.c.Bool("allow-empty"),
		ClearPendingCreates: r.c.Bool("clear-pending-creates"),
		Masker:              r.masker,
		ServeMonitor:        monitor.ServeFunc(monitor.Options{Diag: r.relay.diag, ProgramDirectory: r.s.project.ProgramDir()}),
		// A new stack's random seeds derive from this key; the preview
		// `up` shows first uses the same one, so it shows the same values.
		SeedKey:     make([]byte, 32),
		OpenSeedKey: state.NewDecoder(r.secrets).SeedKey,
		SealSecret:  state.NewEncoder(state.EncodeOptions{Secrets: r.secrets}).Seal,
	}
	if _, err := rand.Read(r.opts.SeedKey); err != nil {
		return err
	}
	if r.s.project.Runtime == "hcl" && len(workspace.TerraformFiles(r.s.project.ProgramDir())) > 0 {
		// A Terraform configuration without resources deletes them all,
		// as `terraform apply` does: its .tf files say so. Its
		// prevent_destroy holds while the resource is declared: one
		// removed from the configuration is deleted (but not by destroy).
		r.opts.AllowEmpty = true
		r.opts.ProtectDeclared = r.kind != opDestroy
	}
	if err := r.setFastPath(); err != nil {
		return err
	}
	if pm, ok := r.secrets.(*secrets.PassphraseManager); ok {
		r.opts.VerifySecrets = pm.Check
	}
	if pairs := r.c.StringSlice("import-pending-creates"); len(pairs) > 0 {
		if len(pairs)%2 != 0 {
			return &exitError{code: 2, msg: "--import-pending-creates takes pairs of URN and ID"}
		}
		r.opts.ImportPendingCreates = map[resource.URN]resource.ID{}
		for i := 0; i < len(pairs); i += 2 {
			r.opts.ImportPendingCreates[resource.URN(pairs[i])] = resource.ID(pairs[i+1])
		}
	}
	if r.kind == opPreview || r.kind == opUp {
		if r.opts.Program, err = r.s.program(r.c.Context, r.host, values, &r.relay); err != nil {
			return err
		}
		if r.opts.Analyzers, err = r.analyzers(); err != nil {
			return err
		}
	}
	return nil
}

// showSecrets reports whether --show-secrets was given.
func (r *operation) showSecrets() bool { return r.c.Bool("show-secrets") }

// masked returns err with the run's secrets masked in its message.
func (r *operation) masked(err error) error {
	if err == nil {
		return nil
	}
	msg := r.masker.Mask(err.Error())
	if msg == err.Error() {
		return err
	}
	code := 1
	if ee := (*exitError)(nil); errors.As(err, &ee) {
		code = ee.code
	}
	return &exitError{code: code, msg: msg}
}

// close stops the plugins the operation started.
func (r *operation) close() {
	if r.host != nil {
		_ = r.host.Close()
	}
	closeAll(r.opts.Analyzers)
}

// signals handles Ctrl-C (and SIGTERM). The first cancels the context: the
// engine starts nothing new, and the operations in flight finish and are
// recorded. The second tells the providers to stop those operations, which
// are then recorded as pending. If they have not stopped within stopGrace, or
// at a third, Cairn exits at once: the journal keeps them pending.
func (r *operation) signals() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(r.c.Context)
	terminate := make(chan struct{})
	r.opts.Terminate = terminate
	ch := make(chan os.Signal, 3)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		n := 0
		var grace <-chan time.Time
		for {
			select {
			case _, ok := <-ch:
				if !ok {
					return
				}
				n++
			case <-grace:
				n = 3
				fmt.Fprintf(r.s.stderr, "The operations in flight did not stop within %s.\n", stopGrace)
			}
			switch n {
			case 1:
				cancel(errors.New("interrupted"))
				fmt.Fprintln(r.s.stderr, "\nInterrupted: nothing new will start, and the operations in flight will finish and be recorded. "+
					"Press Ctrl-C again to stop them (they are then recorded as pending).")
			case 2:
				close(terminate)
				fmt.Fprintln(r.s.stderr, "Stopping the operations in flight; they are recorded as pending. Press Ctrl-C again to exit at once.")
				grace = time.After(stopGrace)
			default:
				fmt.Fprintln(r.s.stderr, "Exiting at once: the operations in flight stay pending in the stack's journal.")
				if l := r.heldLock.Load(); l != nil {
					_ = (*l).Release()
				}
				os.Exit(130)
			}
		}
	}()
	return ctx, func() { signal.Stop(ch); close(ch); cancel(nil) }
}

// stopGrace is how long the operations in flight have to stop after a
// second Ctrl-C.
const stopGrace = 10 * time.Second

// newDisplay makes the display of one engine run.
func (r *operation) newDisplay(op display.Operation) (*display.Display, error) {
	color, err := r.s.color()
	if err != nil {
		return nil, err
	}
	jsonOut, markdown := r.c.Bool("json"), r.c.Bool("markdown")
	return display.New(display.Options{
		Out: r.s.stdout, Interactive: r.s.interactive() && !jsonOut && !markdown, Color: color,
		ShowDiffs: r.c.Bool("diff"), ShowSames: r.c.Bool("show-sames"), ShowSecrets: r.showSecrets(), Masker: r.masker,
		JSON: jsonOut, Markdown: markdown, Operation: op, Stack: r.s.stack, Project: r.s.project.Name,
	}), nil
}

// engine runs the operation's engine entry point with a display.
func (r *operation) engine(ctx context.Context, kind opKind, dry bool, base *snapshot.Snapshot, journal snapshot.Journal) (*deploy.Result, error) {
	op := map[opKind]display.Operation{opPreview: display.OperationPreview, opUp: display.OperationUpdate,
		opRefresh: display.OperationRefresh, opDestroy: display.OperationDestroy, opImport: display.OperationImport}[kind]
	if dry && kind == opUp {
		op = display.OperationPreview
	}
	d, err := r.newDisplay(op)
	if err != nil {
		return nil, err
	}
	opts := r.opts
	opts.DryRun, opts.Journal, opts.Events = dry, journal, d.Handle
	r.relay.set(d.Handle)
	defer r.relay.set(nil)
	var res *deploy.Result
	switch kind {
	case opPreview, opUp:
		res, err = deploy.Update(ctx, opts, base)
	case opRefresh:
		res, err = deploy.Refresh(ctx, opts, base)
	case opDestroy:
		res, err = deploy.Destroy(ctx, opts, base)
	case opImport:
		args := r.c.Args()
		res, err = deploy.Import(ctx, opts, base, []deploy.ImportSpec{{Type: args.Get(0), Name: args.Get(1), ID: resource.ID(args.Get(2)),
			Parent: resource.URN(r.c.String("parent")), Provider: r.c.String("provider"), Protect: r.c.Bool("protect")}})
	}
	r.reportProgramErrors(d, err)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return res, err
}

// document reports whether the operation prints a document (--json or
// --markdown) rather than progress for people.
func (r *operation) document() bool { return r.c.Bool("json") || r.c.Bool("markdown") }

// reportProgramErrors hands a program's diagnostics to a display that
// prints a document, which stderr is not part of; progress for people
// leaves them to failure, which prints them once, with their source.
func (r *operation) reportProgramErrors(d *display.Display, err error) {
	var de *eval.DiagnosticsError
	if !r.document() || !errors.As(err, &de) {
		return
	}
	for _, diag := range de.Diags {
		sev := deploy.SeverityError
		if diag.Severity == hcl.DiagWarning {
			sev = deploy.SeverityWarning
		}
		d.Handle(deploy.DiagEvent{Severity: sev, Message: diagnosticLine(diag)})
	}
}

// diagnosticLine writes a program diagnostic on one line: "file:line:column:
// summary: detail".
func diagnosticLine(d *hcl.Diagnostic) string {
	text := d.Summary
	if d.Detail != "" {
		text += ": " + d.Detail
	}
	if s := d.Subject; s != nil {
		text = eval.RangeString(*s) + ": " + text
	}
	return text
}

// preview runs an operation without changing anything.
func (r *operation) preview(ctx context.Context) error {
	var planBase plan.Base
	if r.c.String("save-plan") != "" {
		var err error
		if planBase, err = r.planBase(ctx); err != nil {
			return err
		}
	}
	if r.lazy != nil {
		var stop context.CancelCauseFunc
		ctx, stop = context.WithCancelCause(ctx)
		defer stop(nil)
		r.stopLazy.Store(&stop)
	}
	read := r.base
	if read == nil {
		read = func() (*snapshot.Snapshot, error) { return r.s.backend.Snapshot(ctx, r.ref, r.secrets) }
	}
	base, err := read()
	if err != nil {
		return err
	}
	kind := r.kind
	if kind == opPreview && r.c.Bool("refresh") {
		res, err := r.engine(ctx, opRefresh, true, base, nil)
		if err != nil {
			return r.failure(opRefresh, r.lazyErr(err))
		}
		base = res.Snapshot
	}
	if kind == opPreview {
		kind = opUp
	}
	res, err := r.engine(ctx, kind, true, base, nil)
	if err == nil && r.c.String("save-plan") != "" {
		return r.savePlan(planBase, res)
	}
	err = r.lazyErr(err)
	if err == nil && r.kind == opPreview && !r.document() {
		fmt.Fprint(r.s.stdout, fastPathHint(res))
	}
	return r.failure(opPreview, err)
}

// lazyErr returns why a secret of the state could not be decrypted when a
// preview first needed it, which stopped the preview, else err.
func (r *operation) lazyErr(err error) error {
	if r.lazy != nil && r.lazy.Err() != nil {
		return fmt.Errorf("decrypting the state's secrets: %w", r.lazy.Err())
	}
	return err
}

// apply runs an operation that changes the stack, under its lock.
func (r *operation) apply(ctx context.Context) error {
	if !r.c.Bool("yes") && !r.s.interactive() {
		return &exitError{code: 1, msg: fmt.Sprintf("`%s` would change the stack and needs confirmation, but this is not an interactive terminal; pass --yes to go ahead", commandPath(r.c))}
	}
	lock, err := r.s.backend.Lock(ctx, r.ref)
	if err != nil {
		return err
	}
	r.heldLock.Store(&lock)
	defer func() {
		r.heldLock.Store(nil)
		lock.Release()
	}()
	if err := r.checkPlanBase(ctx); err != nil {
		return err
	}

	// A plan was made without refreshing (--refresh is refused with it), so
	// its update does not refresh either.
	if r.kind == opUp && r.opts.Plan == nil && (r.c.Bool("refresh") || r.s.project.Options.Refresh == "always") {
		if err := r.applyOne(ctx, lock, opRefresh); err != nil {
			return err
		}
	}
	if !r.c.Bool("yes") || r.opts.Plan != nil {
		// On a terminal: show the preview, then ask. Under a plan the
		// preview also checks the plan still holds, before anything changes.
		if !r.c.Bool("skip-preview") {
			base, err := r.s.backend.Snapshot(ctx, r.ref, r.secrets)
			if err != nil {
				return err
			}
			restore := r.planPreviewAside()
			_, err = r.engine(ctx, r.kind, true, base, nil)
			restore()
			if err != nil {
				return r.planRefused(r.failure(opPreview, err))
			}
		}
		if !r.c.Bool("yes") {
			if err := r.s.confirm(r.c, fmt.Sprintf("Perform this %s on stack %q?", r.kind, r.s.stack)); err != nil {
				return err
			}
		}
	}
	return r.applyOne(ctx, lock, r.kind)
}

// applyOne runs one engine operation as one backend operation: its journal,
// then the state written by Finish.
func (r *operation) applyOne(ctx context.Context, lock backend.Lock, kind opKind) error {
	bk := map[opKind]backend.OperationKind{opUp: backend.KindUpdate, opRefresh: backend.KindRefresh,
		opDestroy: backend.KindDestroy, opImport: backend.KindImport}[kind]
	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: bk, Message: r.c.String("message"), Secrets: r.secrets, Masker: r.masker})
	if err != nil {
		return err
	}
	res, runErr := r.engine(ctx, kind, false, op.Base(), op.Journal())
	var snap *snapshot.Snapshot
	sum := backend.Summary{Err: runErr}
	if res != nil {
		snap, sum.Changes, sum.Violations = res.Snapshot, res.ResourceChanges(), res.Violations
	}
	if err := op.Finish(context.WithoutCancel(ctx), snap, sum); err != nil {
		return errors.Join(runErr, fmt.Errorf("recording the stack's state: %w", err))
	}
	if kind == opImport && runErr == nil && !r.c.Bool("json") {
		return r.printDeclaration(snap)
	}
	return r.failure(kind, runErr)
}

// printDeclaration prints what to add to the program for the resource just
// imported, in the project's language, as `pulumi import` does: without it
// the next update would delete the resource, which protect forbids.
func (r *operation) printDeclaration(snap *snapshot.Snapshot) error {
	args := r.c.Args()
	typ, name := args.Get(0), args.Get(1)
	var res *resource.State
	for _, st := range snap.Resources {
		if st.Type == typ && st.URN.Name() == name && !st.Delete {
			res = st
		}
	}
	if res == nil {
		return nil
	}
	inputs := map[string]any{}
	for k, v := range res.Inputs {
		inputs[k] = plainOutput(v, r.showSecrets())
	}
	var decl string
	var err error
	file := "Pulumi.yaml"
	switch r.s.project.Runtime {
	case "yaml":
		decl, err = yaml.Declaration(name, typ, inputs, res.Protect)
	case "hcl":
		decl, err = langhcl.Declaration(name, typ, inputs, res.Protect)
		file = "a *.hcl file of the project"
		if len(workspace.TerraformFiles(r.s.project.ProgramDir())) > 0 {
			file = "a *.tf file of the project"
		}
	default:
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(r.s.stdout, "\nAdd this to %s, so that the next update keeps the resource:\n\n%s", file, decl)
	return nil
}

// failure turns an engine error into what the user reads: program
// diagnostics rendered with their sources; step failures (already shown by
// the display) summed up.
func (r *operation) failure(kind opKind, err error) error {
	if err == nil {
		return nil
	}
	var de *eval.DiagnosticsError
	if errors.As(err, &de) && len(de.Diags) > 0 {
		color, _ := r.s.color()
		// Written at once, so that the masking writer sees each secret whole.
		var b strings.Builder
		w := &eval.DiagnosticWriter{Files: de.Files, Width: 100, Color: color}
		_ = w.WriteDiagnostics(&b, de.Diags)
		fmt.Fprint(r.s.stderr, b.String())
		return &exitError{code: 1, msg: fmt.Sprintf("%s failed: the program has errors (above)", kind)}
	}
	if se := (*deploy.StepError)(nil); errors.As(err, &se) {
		// The display has shown each failed step with its resource.
		return &exitError{code: 1, msg: fmt.Sprintf("%s failed: see the errors of the resources above", kind)}
	}
	return &exitError{code: 1, msg: fmt.Sprintf("%s failed: %v", kind, err)}
}
