package hcl

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
)

// Options configure loading.
type Options struct {
	// Schemas provides package schemas, to resolve Terraform-style type
	// names, map snake_case property names to the schemas' names and check
	// arguments; nil allows full type tokens only, whose properties are
	// then named by the rule (override_special is overrideSpecial).
	Schemas eval.SchemaSource
	// Project is the project's name, as Pulumi.yaml gives it.
	Project string
	// DeclarePackage, when set, is told of each package served by a
	// parameterized provider that required_providers declares, as soon as
	// it is read, so that its schema can be found.
	DeclarePackage func(name string, spec workspace.PackageSpec)
	// ReadFile, when set, reads the program's files instead of
	// os.ReadFile: an editor's unsaved buffers, say.
	ReadFile func(path string) ([]byte, error)
}

// dialect is how HCL names the parts of a resource, for hints.
var dialect = eval.Dialect{OptionNames: optionNames(), OptionsBlock: "pulumi", PropertiesBlock: "the resource block",
	PropertyName: snake, Unsecret: "nonsensitive()"}

// Load reads the HCL program of the project in dir: every *.hcl file of
// the folder, and the files of the local modules they call. It returns the
// program as far as it could be read, and the diagnostics. File names in
// ranges are relative to dir; the program's directories are absolute.
func Load(dir string, opts Options) (*eval.Program, hcl.Diagnostics) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	l := newLoader(dir, opts)
	files := l.readDir(dir)
	if len(files) == 0 && !l.diags.HasErrors() {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No HCL files",
			Detail: fmt.Sprintf("%s has no *.hcl files; a project with runtime: hcl is the *.hcl files beside its Pulumi.yaml.", dir)})
	}
	return l.program(files)
}

// Parse reads a program held in one file whose source is src; module
// sources are relative to the current directory.
func Parse(filename string, src []byte, opts Options) (*eval.Program, hcl.Diagnostics) {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	l := newLoader(dir, opts)
	return l.program([]*hcl.File{l.parse(filename, src)})
}

// loader reads the files of a project and its modules.
type loader struct {
	root     string
	opts     Options
	parser   *hclparse.Parser
	pkgs     *packages
	versions map[string]*eval.ResourceOptions // Version and PluginDownloadURL by package, from required_providers
	diags    hcl.Diagnostics
}

func newLoader(root string, opts Options) *loader {
	if opts.ReadFile == nil {
		opts.ReadFile = os.ReadFile
	}
	return &loader{root: root, opts: opts, parser: hclparse.NewParser(), pkgs: newPackages(opts.Schemas),
		versions: map[string]*eval.ResourceOptions{}}
}

// readDir parses the *.hcl files of a directory, in name order.
func (l *loader) readDir(dir string) []*hcl.File {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	sort.Strings(paths)
	var out []*hcl.File
	for _, p := range paths {
		name := p
		if rel, err := filepath.Rel(l.root, p); err == nil {
			name = filepath.ToSlash(rel)
		}
		src, err := l.opts.ReadFile(p)
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read file", Detail: err.Error()})
			continue
		}
		out = append(out, l.parse(name, src))
	}
	return out
}

func (l *loader) parse(name string, src []byte) *hcl.File {
	f, diags := l.parser.ParseHCL(src, name)
	l.diags = append(l.diags, diags...)
	return f
}

// program decodes the root module and assembles the program.
func (l *loader) program(files []*hcl.File) (*eval.Program, hcl.Diagnostics) {
	root := l.module(l.root, "the root module", files, nil)
	prog := &eval.Program{
		Root:    root.scope(),
		Project: l.opts.Project,
		RootDir: l.root,
		Files:   l.parser.Files(),
		Schemas: l.opts.Schemas,
		Dialect: dialect,
	}
	return prog, l.diags
}

// module decodes the files of one module (the root, or a module's source
// folder). stack holds the folders of the modules that call it.
func (l *loader) module(dir, where string, files []*hcl.File, stack []string) *module {
	modPath, err := filepath.Rel(l.root, dir)
	if err != nil {
		modPath = dir
	}
	m := &module{l: l, dir: dir, stack: append(stack, dir), res: newResolver(where, map[string]cty.Value{
		"module": cty.StringVal(filepath.ToSlash(modPath)),
		"root":   cty.StringVal("."),
		"cwd":    cty.StringVal(l.root),
	})}
	var blocks []*hcl.Block
	for _, f := range files {
		if f == nil {
			continue
		}
		content, diags := f.Body.Content(fileSchema)
		l.diags = append(l.diags, diags...)
		blocks = append(blocks, content.Blocks...)
	}
	m.decode(blocks)
	return m
}
