package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	cairnws "github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
	"github.com/cairn-iac/cairn/lang/yaml"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// unitKind is what a unit loads.
type unitKind int

const (
	unitNone        unitKind = iota // nothing: a project of another runtime, or none
	unitYAMLProgram                 // the YAML program of a project
	unitHCLProgram                  // the HCL program of a project
	unitHCLFolder                   // a folder of *.hcl files no program reads: a module, say
	unitYAMLFile                    // a YAML file on its own
	unitHCLFile                     // an HCL file on its own: a *.tf file, say
)

// unit is what one check loads and checks, the way a preview does: a
// project's program, a folder or a file. Edits schedule a check after the
// server's delay; an edit made while a check runs cancels it.
type unit struct {
	p    *project
	kind unitKind
	path string // the program's or folder's directory, or the file

	mu       sync.Mutex
	gen      int // counts the edits that concern the unit
	timer    *time.Timer
	running  int // the generation being checked; 0 for none
	cancel   context.CancelFunc
	result   *analysis // the newest analysis
	lastGood *analysis // the newest analysis of a program that could be read
	ready    chan struct{}
	stopped  bool

	pubMu     sync.Mutex
	published map[string]bool // the files last given diagnostics
}

// newUnit returns a unit at generation 1, which is yet to be checked.
func newUnit(p *project, kind unitKind, path string) *unit {
	return &unit{p: p, kind: kind, path: path, gen: 1, ready: make(chan struct{}), published: map[string]bool{}}
}

// changed records an edit: the check under way is superseded, and another
// starts after the delay.
func (u *unit) changed() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped {
		return
	}
	u.gen++
	if u.cancel != nil {
		u.cancel()
		u.cancel, u.running = nil, 0
	}
	if u.timer == nil {
		u.timer = time.AfterFunc(u.p.w.s.opts.Delay, u.start)
	} else {
		u.timer.Reset(u.p.w.s.opts.Delay)
	}
}

// stop cancels the unit's checks for good.
func (u *unit) stop() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.stopped = true
	if u.timer != nil {
		u.timer.Stop()
	}
	if u.cancel != nil {
		u.cancel()
	}
}

// start checks the unit now, unless a check of its current generation is
// done or under way.
func (u *unit) start() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped || u.running == u.gen || u.result != nil && u.result.gen == u.gen {
		return
	}
	gen := u.gen
	ctx, cancel := context.WithCancel(u.p.w.s.ctx)
	u.running, u.cancel = gen, cancel
	go func() {
		defer cancel()
		u.finish(u.safeAnalyze(ctx, gen))
	}()
}

// finish records an analysis and publishes its diagnostics, unless an edit
// superseded it.
func (u *unit) finish(a *analysis) {
	if a == nil {
		return
	}
	u.mu.Lock()
	if u.running == a.gen {
		u.running, u.cancel = 0, nil
	}
	if a.gen != u.gen {
		u.mu.Unlock()
		return
	}
	u.result = a
	if a.readable() {
		u.lastGood = a
	}
	close(u.ready)
	u.ready = make(chan struct{})
	u.mu.Unlock()
	u.publish(a)
	if u.kind == unitHCLProgram {
		u.p.w.recheckUnread(u.p, a)
	}
}

// current returns an analysis of the unit's current generation, checking
// it now rather than after the delay; it returns the newest one there is
// when ctx ends first.
func (u *unit) current(ctx context.Context) *analysis {
	for {
		u.mu.Lock()
		a, ready, gen := u.result, u.ready, u.gen
		u.mu.Unlock()
		if a != nil && a.gen == gen {
			return a
		}
		u.start()
		select {
		case <-ready:
		case <-ctx.Done():
			return a
		}
	}
}

// good returns the newest analysis of a program that could be read.
func (u *unit) good() *analysis {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.lastGood
}

// reads reports whether the newest analysis read the file at path.
func (u *unit) reads(path string) bool {
	u.mu.Lock()
	a := u.result
	u.mu.Unlock()
	return a != nil && a.file(path) != nil
}

// analysis is one check of a unit: the program as its loader read it and
// the diagnostics a preview would stop at.
type analysis struct {
	gen   int
	kind  unitKind
	root  string // the folder the file names of ranges are relative to
	prog  *eval.Program
	diags hcl.Diagnostics
	docs  map[string]*document // the open documents read, by path
	// loadErrors is set when the loader failed: the program was not
	// checked against the schemas, and may miss nodes.
	loadErrors bool
	schemas    *schemas

	mu    sync.Mutex
	texts map[string]*text // by path, made when first asked for
}

// readable reports whether the loader could read the program.
func (a *analysis) readable() bool { return a.prog != nil && !a.loadErrors }

// path returns the path of a file name of a range.
func (a *analysis) path(name string) string {
	if filepath.IsAbs(name) || a.root == "" {
		return filepath.Clean(name)
	}
	return filepath.Join(a.root, filepath.FromSlash(name))
}

// file returns the source of a file the program read, by path.
func (a *analysis) file(path string) *hcl.File {
	if a.prog == nil {
		return nil
	}
	for name, f := range a.prog.Files {
		if a.path(name) == path {
			return f
		}
	}
	return nil
}

// text returns the text of a file as the analysis read it.
func (a *analysis) text(path string) *text {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t := a.texts[path]; t != nil {
		return t
	}
	var src []byte
	if f := a.file(path); f != nil {
		src = f.Bytes
	} else if d := a.docs[path]; d != nil {
		src = d.text.src
	} else {
		src, _ = os.ReadFile(path)
	}
	t := newText(src)
	a.texts[path] = t
	return t
}

// safeAnalyze is analyze, turning a panic into an error the user sees: a
// half-written document must never bring the server down.
func (u *unit) safeAnalyze(ctx context.Context, gen int) (a *analysis) {
	defer func() {
		if p := recover(); p != nil {
			u.p.w.s.log.Error("internal error while checking", "path", u.path, "panic", p, "stack", string(debug.Stack()))
			a = &analysis{gen: gen, kind: unitNone, root: u.path, docs: u.p.w.snapshot(), schemas: u.p.schemas, texts: map[string]*text{},
				diags: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Internal error", Detail: fmt.Sprintf("Cairn failed while checking this program: %v.", p)}}}
		}
	}()
	return u.analyze(ctx, gen)
}

// analyze loads and checks the unit with the open documents as they are.
func (u *unit) analyze(ctx context.Context, gen int) *analysis {
	docs := u.p.w.snapshot()
	read := func(path string) ([]byte, error) {
		if d := docs[path]; d != nil {
			return d.text.src, nil
		}
		return os.ReadFile(path)
	}
	a := &analysis{gen: gen, kind: u.kind, root: u.path, docs: docs, schemas: u.p.schemas, texts: map[string]*text{}}
	dir := u.path
	if u.kind == unitHCLFile || u.kind == unitYAMLFile {
		dir = filepath.Dir(u.path)
	}
	src := u.p.schemas.source(ctx, dir)
	hclOpts := langhcl.Options{Schemas: src, DeclarePackage: src.declare, ReadFile: read, TerraformProviders: tfplugin.Name}
	if u.p.file != nil {
		hclOpts.Project = u.p.file.Name
	}
	switch u.kind {
	case unitNone:
		a.diags = u.p.fileDiagnostics()
		return a
	case unitYAMLProgram:
		a.prog, a.diags = yaml.Load(u.path, yaml.Options{Schemas: src, ReadFile: read})
	case unitHCLProgram, unitHCLFolder:
		if u.kind == unitHCLProgram && u.p.file != nil {
			hclOpts.ProgramDir = u.p.file.ProgramDir()
		}
		// Remote modules are read where cairn installed them; the editor
		// downloads nothing.
		if mods, err := tfinstall.NewModules(tfinstall.ModuleOptions{Dir: u.path, Offline: true}); err == nil {
			hclOpts.Modules = func(c langhcl.ModuleCall) (string, error) { return mods.Install(ctx, tfinstall.ModuleCall(c)) }
		}
		a.prog, a.diags = langhcl.Load(u.path, hclOpts)
	case unitYAMLFile, unitHCLFile:
		a.root = filepath.Dir(u.path)
		b, err := read(u.path)
		if err != nil {
			a.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read file", Detail: err.Error()}}
			return a
		}
		if u.kind == unitYAMLFile {
			a.prog, a.diags = yaml.Parse(u.path, b, yaml.Options{Schemas: src})
		} else {
			a.prog, a.diags = langhcl.Parse(u.path, b, hclOpts)
		}
	}
	a.loadErrors = a.diags.HasErrors()
	if a.prog != nil && !a.loadErrors {
		a.diags = append(a.diags, a.prog.Analyze(ctx)...)
	}
	if ctx.Err() != nil {
		return nil
	}
	a.diags = eval.SortDiagnostics(a.diags)
	return a
}

// fileDiagnostics reports a project file that cannot be read.
func (p *project) fileDiagnostics() hcl.Diagnostics {
	if p.fileErr == nil {
		return nil
	}
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid project file", Detail: p.fileErr.Error()}
	var se *cairnws.SyntaxError
	if errors.As(p.fileErr, &se) {
		d.Summary, d.Detail = "Invalid project file", se.Message
		d.Subject = &hcl.Range{Filename: se.Path, Start: hcl.Pos{Line: se.Line, Column: se.Column, Byte: -1}}
	}
	return hcl.Diagnostics{d}
}

// publish sends the diagnostics of an analysis: for every file that has
// some, every file that had some, and every open document of the unit;
// nothing when a newer analysis is done.
func (u *unit) publish(a *analysis) {
	u.pubMu.Lock()
	defer u.pubMu.Unlock()
	u.mu.Lock()
	superseded := u.result != a
	u.mu.Unlock()
	if superseded {
		return
	}
	byPath := map[string][]Diagnostic{}
	var loose hcl.Diagnostics // without a place in a file
	for _, d := range a.diags {
		if d.Subject == nil || d.Subject.Filename == "" {
			loose = append(loose, d)
			continue
		}
		path := a.path(d.Subject.Filename)
		byPath[path] = append(byPath[path], a.diagnostic(path, d))
	}
	for path, d := range a.docs {
		if u.p.w.project(u.p.w.projectDir(path)).unitOf(d) != u {
			delete(byPath, path)
			continue
		}
		for _, l := range loose {
			byPath[path] = append(byPath[path], a.diagnostic(path, l))
		}
		if byPath[path] == nil {
			byPath[path] = []Diagnostic{}
		}
	}
	for path := range u.published {
		if byPath[path] == nil {
			byPath[path] = []Diagnostic{}
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	u.published = map[string]bool{}
	for _, path := range paths {
		ds := byPath[path]
		params := PublishDiagnosticsParams{URI: uriOf(path), Diagnostics: ds}
		if d := a.docs[path]; d != nil {
			params.URI, params.Version = d.uri, &d.version
		}
		if len(ds) > 0 {
			u.published[path] = true
		}
		_ = u.p.w.s.conn.notify("textDocument/publishDiagnostics", params)
	}
}

// diagnostic converts a diagnostic of a file of the analysis.
func (a *analysis) diagnostic(path string, d *hcl.Diagnostic) Diagnostic {
	out := Diagnostic{Severity: severityError, Source: "cairn", Message: d.Summary}
	if d.Severity == hcl.DiagWarning {
		out.Severity = severityWarning
	}
	if d.Detail != "" {
		out.Message += "\n" + d.Detail
	}
	if d.Subject != nil {
		out.Range = a.rangeOf(path, *d.Subject)
	}
	return out
}

// rangeOf returns the protocol range of a range of a file.
func (a *analysis) rangeOf(path string, r hcl.Range) Range {
	if r.Start.Byte < 0 { // a line and column only
		p := Position{Line: max(0, r.Start.Line-1), Character: max(0, r.Start.Column-1)}
		return Range{Start: p, End: p}
	}
	if r.End.Byte < r.Start.Byte {
		r.End = r.Start
	}
	return a.text(path).rng(r)
}

// recheckUnread checks on their own the open HCL documents of a project
// that its program does not read (the files of a module no one calls), and
// no longer those it reads.
func (w *workspace) recheckUnread(p *project, a *analysis) {
	for path, d := range a.docs {
		if languageOf(path) != "hcl" || w.projectDir(path) != p.dir || a.file(path) != nil {
			continue
		}
		if u := p.unitOf(d); u != nil && u.kind == unitHCLFolder {
			u.changed()
		}
	}
}
