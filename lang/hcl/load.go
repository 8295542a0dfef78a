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

	"github.com/cairn-iac/cairn/engine/schema"
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
	// Modules, when set, returns the folder of each module call, local
	// or not: Cairn installs remote modules through it. Without it, only
	// local sources (./, ../) are read.
	Modules func(ModuleCall) (string, error)
	// ReadFile, when set, reads the program's files instead of
	// os.ReadFile: an editor's unsaved buffers, say.
	ReadFile func(path string) ([]byte, error)
	// Vars are the -var and -var-file arguments of the command, in the
	// order given, and Env the environment, for TF_VAR_<name>: values of
	// the root module's variables, with those of .tfvars files in the
	// program's folder (see rootVariables).
	Vars []VarArg
	Env  []string
}

// dialect is how HCL names the parts of a resource, for hints.
var dialect = eval.Dialect{OptionNames: optionNames(), OptionsBlock: "pulumi", PropertiesBlock: "the resource block",
	PropertyName: schema.SnakeCase, Unsecret: "nonsensitive()", ForEach: "for_each", ToSet: "toset",
	OmitNullOutputs: true}

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
	src := l.readDir(program)
	if len(src.files) == 0 && !l.diags.HasErrors() {
		detail := fmt.Sprintf("%s has no *.tf or *.hcl files; a project with runtime: hcl is the *.tf (or *.hcl) files beside its Pulumi.yaml.", dir)
		if program != dir {
			detail = fmt.Sprintf("%s, the folder main: in Pulumi.yaml names, has no *.tf or *.hcl files; put the program's files there, or correct main:.", program)
		}
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No HCL files", Detail: detail})
	}
	return l.program(src)
}

// Parse reads a program held in one file whose source is src; module
// sources are relative to the current directory.
func Parse(filename string, src []byte, opts Options) (*eval.Program, hcl.Diagnostics) {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	l := newLoader(dir, dir, opts)
	return l.program(sources{files: []*hcl.File{l.parse(filename, src)}, terraform: terraformFile(filename)})
}

// terraformFile reports whether a file's name is a Terraform (or
// OpenTofu) configuration file's.
func terraformFile(name string) bool {
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// loader reads the files of a project and its modules.
type loader struct {
	project  string // the project's folder, which file names are relative to
	root     string // the root module's folder, the program's
	opts     Options
	parser   *hclparse.Parser
	pkgs     *packages
	versions map[string]*eval.ResourceOptions // Version and PluginDownloadURL by package, from required_providers
	tfReqs   map[string]*tfRequirement        // the Terraform providers the modules require, by package
	modules  []*module                        // every module decoded, the root first
	// unchecked holds what is wrong with the provider blocks of modules
	// of Terraform files, said only of those a block uses.
	unchecked map[*eval.Resource]hcl.Diagnostics
	diags     hcl.Diagnostics
	// backendWarned is set once a backend (or cloud) block was reported
	// as not used.
	backendWarned bool
}

func newLoader(project, root string, opts Options) *loader {
	if opts.ReadFile == nil {
		opts.ReadFile = os.ReadFile
	}
	return &loader{project: project, root: root, opts: opts, parser: hclparse.NewParser(), pkgs: newPackages(opts.Schemas),
		versions: map[string]*eval.ResourceOptions{}, tfReqs: map[string]*tfRequirement{},
		unchecked: map[*eval.Resource]hcl.Diagnostics{}}
}

// sources are the parsed files of a module's folder; terraform is set
// when they are Terraform files (*.tf), not *.hcl.
type sources struct {
	files, overrides []*hcl.File
	terraform        bool
}

// readDir parses the files of a module's folder, in name order: its
// Terraform configuration files (*.tf, *.tf.json) when it has any, else
// its *.hcl files. Hidden files are left out, as Terraform leaves them out
// (.terraform.lock.hcl is not part of the program). Override files come
// apart, to be merged into the others.
func (l *loader) readDir(dir string) sources {
	paths := workspace.TerraformFiles(dir)
	out := sources{terraform: len(paths) > 0}
	if len(paths) == 0 {
		paths, _ = filepath.Glob(filepath.Join(dir, "*.hcl"))
		sort.Strings(paths)
	}
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), ".") {
			continue
		}
		name := p
		if rel, err := filepath.Rel(l.project, p); err == nil {
			name = filepath.ToSlash(rel)
		}
		src, err := l.opts.ReadFile(p)
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read file", Detail: err.Error()})
			continue
		}
		f := l.parse(name, src)
		if isOverride(p) {
			out.overrides = append(out.overrides, f)
		} else {
			out.files = append(out.files, f)
		}
	}
	return out
}

// parse parses a file, in JSON when its name ends in .json.
func (l *loader) parse(name string, src []byte) *hcl.File {
	parse := l.parser.ParseHCL
	if strings.HasSuffix(name, ".json") {
		parse = l.parser.ParseJSON
	}
	f, diags := parse(src, name)
	l.diags = append(l.diags, diags...)
	return f
}

// program decodes the root module and assembles the program.
func (l *loader) program(src sources) (*eval.Program, hcl.Diagnostics) {
	root := l.module(l.root, "", src, nil)
	l.pruneProviders()
	l.rootVariables(root)
	propagateCreateFirst(root.nodes, root.res)
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
// folder), whose key is "" for the root (see ModuleCall). stack holds the
// folders of the modules that call it.
func (l *loader) module(dir, key string, src sources, stack []string) *module {
	where := "the root module"
	if key != "" {
		where = "module." + key[strings.LastIndexByte(key, '.')+1:]
	}
	modPath, err := filepath.Rel(l.root, dir)
	if err != nil {
		modPath = dir
	}
	m := &module{l: l, dir: dir, key: key, stack: append(stack, dir), tf: src.terraform, localNames: map[string]string{}, hclVars: map[string]bool{}, res: newResolver(where, map[string]cty.Value{
		"module": cty.StringVal(filepath.ToSlash(modPath)),
		"root":   cty.StringVal("."),
		"cwd":    cty.StringVal(l.root),
	})}
	l.modules = append(l.modules, m)
	m.decode(m.override(l.blocks(src.files), l.blocks(src.overrides)))
	return m
}

// blocks returns the top-level blocks of files.
func (l *loader) blocks(files []*hcl.File) []*hcl.Block {
	var out []*hcl.Block
	for _, f := range files {
		if f == nil {
			continue
		}
		content, diags := f.Body.Content(fileSchema)
		l.diags = append(l.diags, diags...)
		out = append(out, content.Blocks...)
	}
	return out
}
