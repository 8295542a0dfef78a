package hcl

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
	// ProgramDir is the folder of the program's *.hcl files, the one
	// main: in Pulumi.yaml names; "" is the project's folder.
	ProgramDir string
	// DeclarePackage, when set, is told of each package served by a
	// parameterized provider that required_providers declares, as soon as
	// it is read, so that its schema can be found.
	DeclarePackage func(name string, spec workspace.PackageSpec)
	// TerraformProviders is the provider plugin that serves Terraform
	// providers, parameterized with their source address and version
	// constraints; empty: requirements of Terraform providers are errors.
	TerraformProviders string
}

// dialect is how HCL names the parts of a resource, for hints.
var dialect = eval.Dialect{OptionNames: optionNames(), OptionsBlock: "pulumi", PropertiesBlock: "the resource block",
	PropertyName: snake, Unsecret: "nonsensitive()"}

// Load reads the HCL program of the project in dir: every *.hcl file of
// the program's folder (Options.ProgramDir, or dir), and the files of the
// local modules they call. It returns the program as far as it could be
// read, and the diagnostics. File names in ranges are relative to dir; the
// program's directories are absolute.
func Load(dir string, opts Options) (*eval.Program, hcl.Diagnostics) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	program := dir
	if opts.ProgramDir != "" {
		program = opts.ProgramDir
		if abs, err := filepath.Abs(program); err == nil {
			program = abs
		}
	}
	l := newLoader(dir, program, opts)
	files := l.readDir(program)
	if len(files) == 0 && !l.diags.HasErrors() {
		detail := fmt.Sprintf("%s has no *.hcl files; a project with runtime: hcl is the *.hcl files beside its Pulumi.yaml.", dir)
		if program != dir {
			detail = fmt.Sprintf("%s, the folder main: in Pulumi.yaml names, has no *.hcl files; put the program's *.hcl files there, or correct main:.", program)
		}
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No HCL files", Detail: detail})
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
	l := newLoader(dir, dir, opts)
	return l.program([]*hcl.File{l.parse(filename, src)})
}

// loader reads the files of a project and its modules.
type loader struct {
	project  string // the project's folder, which file names are relative to
	root     string // the root module's folder, the program's
	opts     Options
	parser   *hclparse.Parser
	pkgs     *packages
	versions map[string]*eval.ResourceOptions // Version and PluginDownloadURL by package, from required_providers
	diags    hcl.Diagnostics
}

func newLoader(project, root string, opts Options) *loader {
	return &loader{project: project, root: root, opts: opts, parser: hclparse.NewParser(), pkgs: newPackages(opts.Schemas),
		versions: map[string]*eval.ResourceOptions{}}
}

// readDir parses the *.hcl files of a directory, in name order. Hidden
// files are left out, as Terraform leaves them out: .terraform.lock.hcl
// is not part of the program.
func (l *loader) readDir(dir string) []*hcl.File {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	sort.Strings(paths)
	var out []*hcl.File
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), ".") {
			continue
		}
		name := p
		if rel, err := filepath.Rel(l.project, p); err == nil {
			name = filepath.ToSlash(rel)
		}
		src, err := os.ReadFile(p)
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
		RootDir: l.project,
		Files:   l.parser.Files(),
		Schemas: l.opts.Schemas,
		Dialect: dialect,

		ProviderFunctions: l.pkgs.providerFunctions(),
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
