package yaml

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/eval"
)

// Options configure loading.
type Options struct {
	// Schemas provides package schemas, to resolve short type tokens and
	// check properties before the program runs; nil skips both.
	Schemas eval.SchemaSource
	// ReadFile, when set, reads the project's files instead of
	// os.ReadFile: an editor's unsaved buffers, say.
	ReadFile func(path string) ([]byte, error)
}

// dialect is how YAML names the parts of a resource, for hints.
var dialect = eval.Dialect{OptionNames: optionNames, OptionsBlock: "options", PropertiesBlock: "properties",
	Unsecret: "fn::unsecret"}

// Load reads the YAML program of the project in dir: Pulumi.yaml, the
// program, and every *.cairn.yaml beside the program, merged into one
// namespace. The program is where Pulumi YAML finds it: in the folder main:
// names (the project's by default), Main.yaml, Main.yml or Main.json, else
// that folder's own Pulumi.yaml, else (in the project's folder) the
// project's Pulumi.yaml; a main: that names a file names the program. It
// returns the program as far as it could be read (nil without a
// Pulumi.yaml), and the diagnostics. File names in ranges are relative to
// dir; the program's directories are absolute.
func Load(dir string, opts Options) (*eval.Program, hcl.Diagnostics) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	l := &loader{dir: dir, files: map[string]*hcl.File{}, readFile: opts.ReadFile}
	if l.readFile == nil {
		l.readFile = os.ReadFile
	}
	projFile := l.first(dir, "Pulumi.yaml", "Pulumi.yml")
	if projFile == "" {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No project file",
			Detail: fmt.Sprintf("%s has no Pulumi.yaml; a project needs one, with at least name and runtime: yaml.", dir)}}
	}
	projRoot := l.read(projFile)
	meta := metadata(projRoot)
	mainDir, mainFile := l.main(meta)
	program := projRoot
	if mainFile != "" && mainFile != projFile {
		l.unread(projRoot, mainFile)
		program = l.read(mainFile)
	}
	l.p.document(program, projectFileKeys)
	extra, _ := filepath.Glob(filepath.Join(mainDir, "*.cairn.yaml"))
	sort.Strings(extra)
	for _, f := range extra {
		l.p.document(l.read(f), programKeys)
	}
	return l.program(meta, mainDir, opts)
}

// main returns the program's folder and its file, "" for the project's
// Pulumi.yaml, as Load finds them.
func (l *loader) main(meta project) (dir, file string) {
	if meta.main == "" {
		return l.dir, l.first(l.dir, mainFiles...)
	}
	path := filepath.Join(l.dir, meta.main)
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		return filepath.Dir(path), path
	}
	if path == l.dir {
		return path, l.first(path, mainFiles...)
	}
	if file = l.first(path, append(mainFiles, "Pulumi.yaml", "Pulumi.yml")...); file == "" {
		l.p.errorf(meta.mainRange, "No program in the main folder",
			"main: names %s, which holds no Main.yaml (nor Main.yml, Main.json or Pulumi.yaml); put the program there, or remove main: to keep the program in Pulumi.yaml.", meta.main)
	}
	return path, file
}

// mainFiles are the names of a program file beside Pulumi.yaml.
var mainFiles = []string{"Main.yaml", "Main.yml", "Main.json"}

// unread checks the top-level keys of the project's Pulumi.yaml when the
// program is in file, and warns of the variables, resources and outputs it
// holds, which are not read.
func (l *loader) unread(root *node, file string) {
	_, keys := l.p.topLevel(root, projectFileKeys)
	name := file
	if rel, err := filepath.Rel(l.dir, file); err == nil {
		name = rel
	}
	for _, k := range []string{"variables", "resources", "outputs"} {
		if key := keys[k]; key != nil {
			l.p.warnf(key.rng, "Section not read", "The program is in %s, so the %s of Pulumi.yaml are not read; move them there.", name, k)
		}
	}
}

// Parse reads a program held in one file (a Pulumi.yaml with the program
// inline) whose sources are src; relative paths are relative to the current
// directory.
func Parse(filename string, src []byte, opts Options) (*eval.Program, hcl.Diagnostics) {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	l := &loader{dir: dir, files: map[string]*hcl.File{}}
	root := l.parse(filename, src)
	l.p.document(root, projectFileKeys)
	return l.program(metadata(root), dir, opts)
}

// loader reads the files of a project.
type loader struct {
	dir      string
	files    map[string]*hcl.File
	readFile func(string) ([]byte, error)
	p        parser
}

// first returns the first of the names that exists in dir, as ReadFile
// reads it (an editor's unsaved buffer counts).
func (l *loader) first(dir string, names ...string) string {
	for _, n := range names {
		p := filepath.Join(dir, n)
		if _, err := l.readFile(p); err == nil {
			return p
		}
	}
	return ""
}

// read reads and parses a file; its name in ranges is relative to the
// project directory.
func (l *loader) read(path string) *node {
	name := path
	if rel, err := filepath.Rel(l.dir, path); err == nil {
		name = rel
	}
	src, err := l.readFile(path)
	if err != nil {
		l.p.diags = append(l.p.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read file", Detail: err.Error()})
		return nil
	}
	return l.parse(name, src)
}

func (l *loader) parse(name string, src []byte) *node {
	s := newSource(name, src)
	l.files[name] = &hcl.File{Bytes: src}
	root, diags := parseDocument(s)
	l.p.diags = append(l.p.diags, diags...)
	return root
}

// metadata reads the project keys of Pulumi.yaml.
func metadata(root *node) project {
	var proj project
	if root == nil || root.kind != yaml.MappingNode {
		return proj
	}
	for _, kv := range root.pairs {
		switch canonicalKey(kv.key.value, projectKeys) {
		case "name":
			proj.name, _ = stringLiteral(kv.value)
		case "description":
			proj.description, _ = stringLiteral(kv.value)
		case "main":
			proj.main, _ = stringLiteral(kv.value)
			proj.mainRange = kv.value.rng
		}
	}
	return proj
}

// program assembles the model.
func (l *loader) program(meta project, mainDir string, opts Options) (*eval.Program, hcl.Diagnostics) {
	l.p.implicitConfigs()
	prog := &eval.Program{
		Root:        &eval.Scope{Nodes: l.p.nodes, Resolver: newResolver(l.p.nodes), Dir: mainDir},
		Project:     meta.name,
		Description: meta.description,
		RootDir:     l.dir,
		Files:       l.files,
		Schemas:     opts.Schemas,
		Dialect:     dialect,
	}
	return prog, l.p.diags
}
