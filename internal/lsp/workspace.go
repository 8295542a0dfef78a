package lsp

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	cairnws "github.com/cairn-iac/cairn/engine/workspace"
)

// document is a document the client has open: its text is the truth, not
// the file's.
type document struct {
	uri     string
	path    string
	version int
	text    *text
}

// workspace holds the open documents and the projects they belong to.
type workspace struct {
	s *server

	mu       sync.Mutex
	docs     map[string]*document // by path
	projects map[string]*project  // by folder; "" for documents outside any project
}

func newWorkspace(s *server) *workspace {
	return &workspace{s: s, docs: map[string]*document{}, projects: map[string]*project{}}
}

// close stops every project's checks.
func (w *workspace) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.projects {
		p.close()
	}
	w.projects = map[string]*project{}
}

// prefetch starts loading the schemas of the built-in providers, which
// completion offers in every program.
func (w *workspace) prefetch() {
	p := w.project("")
	for _, pkg := range w.s.opts.Schemas.Builtins() {
		p.schemas.entry(schemaKey{pkg: pkg})
	}
}

func (w *workspace) open(item textDocumentItem) error {
	path, err := pathOf(item.URI)
	if err != nil {
		return err
	}
	d := &document{uri: item.URI, path: path, version: item.Version, text: newText([]byte(item.Text))}
	w.mu.Lock()
	w.docs[path] = d
	w.mu.Unlock()
	w.changed(path)
	return nil
}

func (w *workspace) change(p didChangeParams) error {
	path, err := pathOf(p.TextDocument.URI)
	if err != nil {
		return err
	}
	w.mu.Lock()
	d := w.docs[path]
	if d == nil {
		w.mu.Unlock()
		return fmt.Errorf("%s changed but is not open", p.TextDocument.URI)
	}
	t := d.text
	for _, c := range p.ContentChanges {
		src, err := t.apply(c)
		if err != nil {
			w.mu.Unlock()
			return err
		}
		t = newText(src)
	}
	w.docs[path] = &document{uri: d.uri, path: path, version: p.TextDocument.Version, text: t}
	w.mu.Unlock()
	w.changed(path)
	return nil
}

func (w *workspace) closeDocument(uri string) error {
	path, err := pathOf(uri)
	if err != nil {
		return err
	}
	w.mu.Lock()
	delete(w.docs, path)
	w.mu.Unlock()
	w.changed(path) // the file's content on disk is the truth again
	return nil
}

// saved reacts to a file saved or changed on disk.
func (w *workspace) saved(uri string) error {
	path, err := pathOf(uri)
	if err != nil {
		return err
	}
	w.changed(path)
	return nil
}

// changed schedules the checks that read path: those of the unit of the
// document, and of its project's program. A project file is read again,
// and its project made anew when what it says changed.
func (w *workspace) changed(path string) {
	if languageOf(path) == "" {
		return
	}
	if isProjectFile(path) {
		w.reread(filepath.Dir(path))
	}
	p := w.project(w.projectDir(path))
	p.program().changed()
	if d := w.document(path); d != nil {
		if u := p.unitOf(d); u != nil {
			u.changed()
		}
	}
}

// document returns the open document at path, or nil.
func (w *workspace) document(path string) *document {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.docs[path]
}

// documentOf returns the open document of a URI.
func (w *workspace) documentOf(uri string) (*document, error) {
	path, err := pathOf(uri)
	if err != nil {
		return nil, err
	}
	if d := w.document(path); d != nil {
		return d, nil
	}
	return nil, errorf(codeInvalidParams, "%s is not open", uri)
}

// snapshot returns the open documents.
func (w *workspace) snapshot() map[string]*document {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]*document, len(w.docs))
	for k, d := range w.docs {
		out[k] = d
	}
	return out
}

// projectDir returns the folder of the project file above path (an open
// one, saved or not, or one on disk), or "".
func (w *workspace) projectDir(path string) string {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		for _, name := range cairnws.ProjectFileNames {
			p := filepath.Join(dir, name)
			if w.document(p) != nil {
				return dir
			}
			if _, err := os.Stat(p); err == nil {
				return dir
			}
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// project returns the project of a folder, making it the first time.
func (w *workspace) project(dir string) *project {
	w.mu.Lock()
	p := w.projects[dir]
	w.mu.Unlock()
	if p != nil {
		return p
	}
	src, path := w.projectSource(dir)
	p = w.newProject(dir, src, path)
	w.mu.Lock()
	defer w.mu.Unlock()
	if p := w.projects[dir]; p != nil {
		return p
	}
	w.projects[dir] = p
	return p
}

// reread reads the project file in dir again, as the open document or the
// file on disk has it, and makes the project anew when it says something
// else now; its schemas are kept when its plugins and packages are the
// same. An edit of the program's sections alone reads nothing, unless the
// file could not be read.
func (w *workspace) reread(dir string) {
	w.mu.Lock()
	old := w.projects[dir]
	w.mu.Unlock()
	if old == nil {
		return
	}
	src, path := w.projectSource(dir)
	if path == old.path && old.fileErr == nil && projectHead(src) == old.head {
		return
	}
	p := w.newProject(dir, src, path)
	if reflect.DeepEqual(old.file, p.file) && fmt.Sprint(old.fileErr) == fmt.Sprint(p.fileErr) {
		old.head = p.head
		return
	}
	if old.file != nil && p.file != nil && reflect.DeepEqual(old.file.Plugins, p.file.Plugins) && reflect.DeepEqual(old.file.Packages, p.file.Packages) {
		p.schemas = old.schemas
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.projects[dir] == old {
		old.close()
		w.projects[dir] = p
	}
}

// projectSource returns the project file in dir and its text: the open
// document, saved or not, or the file on disk; "" when there is none.
func (w *workspace) projectSource(dir string) ([]byte, string) {
	if dir == "" {
		return nil, ""
	}
	for _, name := range cairnws.ProjectFileNames {
		path := filepath.Join(dir, name)
		if d := w.document(path); d != nil {
			return d.text.src, path
		}
		if src, err := os.ReadFile(path); err == nil {
			return src, path
		}
	}
	return nil, ""
}

// projectHead returns the text of a project file less the sections of a
// program (config, variables, resources, outputs), which the project does
// not read: top-level keys begin lines, and what follows one, indented,
// is its value.
func projectHead(src []byte) string {
	var b strings.Builder
	keep := true
	for line := range strings.Lines(string(src)) {
		if line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '\n' && line[0] != '\r' {
			key, _, _ := strings.Cut(line, ":")
			keep = !slices.Contains([]string{"config", "variables", "resources", "outputs"}, strings.TrimSpace(key))
		}
		if keep {
			b.WriteString(line)
		}
	}
	return b.String()
}

// schemaLoaded re-checks everything once a schema is loaded.
func (w *workspace) schemaLoaded(string) {
	if w.s.ctx.Err() != nil {
		return
	}
	w.mu.Lock()
	projects := slices.Collect(maps.Values(w.projects))
	w.mu.Unlock()
	for _, p := range projects {
		p.recheck()
	}
}

// project is a folder with a project file, or (with dir "") the documents
// outside any project: its schemas and the units that check its
// documents.
type project struct {
	w       *workspace
	dir     string
	path    string           // the project file; "" for none
	head    string           // its text as projectHead gives it
	file    *cairnws.Project // nil: none, or unreadable
	fileErr error
	schemas *schemas

	mu    sync.Mutex
	units map[string]*unit
}

// newProject returns the project of dir whose project file at path (""
// for none) holds src.
func (w *workspace) newProject(dir string, src []byte, path string) *project {
	p := &project{w: w, dir: dir, path: path, head: projectHead(src), units: map[string]*unit{}}
	if path != "" {
		p.file, p.fileErr = cairnws.ParseProject(path, src)
	}
	var plugins []cairnws.PluginRef
	var packages map[string]cairnws.PackageSpec
	if p.file != nil {
		plugins, packages = p.file.Plugins.Providers, p.file.Packages
	}
	p.schemas = newSchemas(w.s.ctx, w.s.opts.Schemas.Project(plugins, packages), dir, w.schemaLoaded)
	return p
}

func (p *project) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range p.units {
		u.stop()
	}
}

// runtime returns the project's runtime, or "" when its file is unreadable.
func (p *project) runtime() string {
	if p.file == nil {
		return ""
	}
	return p.file.Runtime
}

// programDir returns the folder of the program's files.
func (p *project) programDir() string {
	if p.file == nil {
		return p.dir
	}
	return p.file.ProgramDir()
}

// recheck checks every unit again.
func (p *project) recheck() {
	p.mu.Lock()
	units := slices.Collect(maps.Values(p.units))
	p.mu.Unlock()
	for _, u := range units {
		u.changed()
	}
}

// unit returns a unit of the project, making it the first time.
func (p *project) unit(kind unitKind, path string) *unit {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := fmt.Sprintf("%d:%s", kind, path)
	if u := p.units[key]; u != nil {
		return u
	}
	u := newUnit(p, kind, path)
	p.units[key] = u
	return u
}

// program returns the unit of the project's program; outside any project,
// one that checks nothing.
func (p *project) program() *unit {
	switch {
	case p.dir == "":
		return p.unit(unitNone, "")
	case p.runtime() == "hcl":
		return p.unit(unitHCLProgram, p.dir)
	case p.runtime() == "yaml":
		return p.unit(unitYAMLProgram, p.dir)
	}
	return p.unit(unitNone, p.dir)
}

// unitOf returns the unit whose check covers a document: the project's
// program when it reads the document, else the document's folder (HCL)
// or the document alone.
func (p *project) unitOf(d *document) *unit {
	base := filepath.Base(d.path)
	switch lang := languageOf(d.path); {
	case lang == "yaml" && p.runtime() == "yaml" && p.readsYAML(d.path):
		return p.program()
	case lang == "yaml" && isProjectFile(d.path):
		return p.program()
	case lang == "yaml":
		return p.unit(unitYAMLFile, d.path)
	case lang == "hcl" && p.runtime() == "hcl" && (filepath.Dir(d.path) == p.programDir() || p.program().reads(d.path)):
		return p.program()
	case lang == "hcl" && strings.HasSuffix(base, ".hcl"):
		return p.unit(unitHCLFolder, filepath.Dir(d.path))
	case lang == "hcl":
		return p.unit(unitHCLFile, d.path)
	}
	return nil
}

// readsYAML reports whether the YAML program reads a file: the project
// file, and the program's files in the program's folder.
func (p *project) readsYAML(path string) bool {
	dir := filepath.Dir(path)
	return dir == p.dir && isProjectFile(path) || dir == p.programDir() && !isProjectFile(path)
}

func isProjectFile(path string) bool {
	base := filepath.Base(path)
	for _, n := range cairnws.ProjectFileNames {
		if base == n {
			return true
		}
	}
	return false
}

// languageOf returns the language of a program's file by its name: "yaml"
// for Pulumi.yaml, Main.yaml and *.cairn.yaml (and their .yml and .json
// spellings), "hcl" for *.hcl and *.tf, and "" for any other file, which
// the server leaves alone (a stack's configuration, a CI workflow).
func languageOf(path string) string {
	base := filepath.Base(path)
	switch {
	case isProjectFile(path), base == "Main.yaml", base == "Main.yml", base == "Main.json", strings.HasSuffix(base, ".cairn.yaml"):
		return "yaml"
	case strings.HasSuffix(base, ".hcl"), strings.HasSuffix(base, ".tf"):
		return "hcl"
	}
	return ""
}

// current returns the analysis of the unit covering a document that
// reflects its text, checking it now if needed; nil when the document is
// no part of a program.
func (w *workspace) current(ctx context.Context, d *document) *analysis {
	p := w.project(w.projectDir(d.path))
	if u := p.unitOf(d); u != nil {
		return u.current(ctx)
	}
	return nil
}

// latest returns the newest analysis of the unit covering a document that
// could read its program, without waiting for one more recent; the first
// time, it waits for one.
func (w *workspace) latest(ctx context.Context, d *document) *analysis {
	p := w.project(w.projectDir(d.path))
	u := p.unitOf(d)
	if u == nil {
		return nil
	}
	if a := u.good(); a != nil {
		return a
	}
	return u.current(ctx)
}
