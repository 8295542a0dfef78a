// Package workspace reads and writes the files a user keeps beside a program:
// the project file Pulumi.yaml and the stack configuration files
// Pulumi.<stack>.yaml, in Pulumi's formats so existing projects work
// unchanged, plus the per-project record of the selected stack. A folder
// of Terraform configuration files (*.tf) without a project file is a
// project too, named after the folder, with runtime hcl.
//
//	proj, err := workspace.LoadProject(dir)
//	cfg, err := workspace.LoadStackConfig(proj, "dev")
//	values, err := cfg.Values(crypter) // "<ns>:<key>" → engine values
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Project is a Pulumi.yaml project file.
type Project struct {
	Name           string
	Runtime        string
	RuntimeOptions map[string]any
	Description    string
	Main           string // the program's folder or entry point relative to the project, if any
	Plugins        Plugins
	// Packages are the packages served by parameterized providers, by
	// package name (Pulumi.yaml `packages:`).
	Packages map[string]PackageSpec
	Options  ProjectOptions
	// FastPath is the `cairn: fastPath:` setting; nil when absent.
	FastPath *FastPath
	// Path is the project file; Dir its folder.
	Path string
	Dir  string
	// Implied is set for a folder of Terraform configuration files that
	// has no project file (Path is then "").
	Implied bool
	// mainLine and mainColumn are where main: is in the file.
	mainLine, mainColumn int
}

// Plugins lists plugins the project pins to local paths.
type Plugins struct {
	Providers []PluginRef `yaml:"providers,omitempty"`
	Languages []PluginRef `yaml:"languages,omitempty"`
}

// PluginRef names a plugin binary by package, path and version.
type PluginRef struct {
	Name    string `yaml:"name"`
	Path    string `yaml:"path,omitempty"`
	Version string `yaml:"version,omitempty"`
}

// ProjectOptions are project-wide operation settings.
type ProjectOptions struct {
	Refresh string `yaml:"refresh,omitempty"` // "always" refreshes before each update
}

// projectFile is the YAML shape of the fields Cairn reads; the program of a
// YAML project shares the file and is read by the YAML front end.
type projectFile struct {
	Name        string                 `yaml:"name"`
	Runtime     yaml.Node              `yaml:"runtime"`
	Description string                 `yaml:"description"`
	Main        yaml.Node              `yaml:"main"`
	Plugins     Plugins                `yaml:"plugins"`
	Packages    map[string]PackageSpec `yaml:"packages"`
	Options     ProjectOptions         `yaml:"options"`
	Cairn       yaml.Node              `yaml:"cairn"`
}

// ProjectFileNames are the names a project file may have.
var ProjectFileNames = []string{"Pulumi.yaml", "Pulumi.yml"}

// ErrNoProject is returned when no project file is found.
var ErrNoProject = errors.New("no Pulumi.yaml project file found")

var projectNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// FindProject looks for a project file in dir and its parents.
func FindProject(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		for _, n := range ProjectFileNames {
			p := filepath.Join(d, n)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%w in %s or any parent folder, and it holds no Terraform configuration (*.tf); create one (name: and runtime: yaml) or pass --cwd", ErrNoProject, abs)
		}
	}
}

// LoadProject finds and reads the project file for dir. A folder without
// one that holds Terraform configuration files is a project of its own,
// named after the folder, with runtime hcl: a Terraform configuration runs
// as it is.
func LoadProject(dir string) (*Project, error) {
	if abs, err := filepath.Abs(dir); err == nil && !hasProjectFile(abs) && len(TerraformFiles(abs)) > 0 {
		return terraformProject(abs), nil
	}
	path, err := FindProject(dir)
	if err != nil {
		return nil, err
	}
	return ReadProject(path)
}

// ReadProject reads the project file at path.
func ReadProject(path string) (*Project, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseProject(path, data)
}

// ParseProject reads a project file at path whose content is data: an
// editor's unsaved buffer, say.
func ParseProject(path string, data []byte) (*Project, error) {
	var f projectFile
	var err error
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, LocateYAMLError(path, data, err)
	}
	p := &Project{Name: f.Name, Description: f.Description, Main: f.Main.Value, Plugins: f.Plugins, Packages: f.Packages,
		Options: f.Options, Path: path, Dir: filepath.Dir(path), mainLine: f.Main.Line, mainColumn: f.Main.Column}
	if p.FastPath, err = cairnSettings(path, &f.Cairn); err != nil {
		return nil, err
	}
	switch f.Runtime.Kind {
	case yaml.ScalarNode:
		p.Runtime = f.Runtime.Value
	case yaml.MappingNode:
		var rt struct {
			Name    string         `yaml:"name"`
			Options map[string]any `yaml:"options"`
		}
		if err := f.Runtime.Decode(&rt); err != nil {
			return nil, fmt.Errorf("%s:%d: runtime: %w", path, f.Runtime.Line, err)
		}
		p.Runtime, p.RuntimeOptions = rt.Name, rt.Options
	}
	switch {
	case p.Name == "":
		return nil, fmt.Errorf("%s: the project has no name; add `name: <project>`", path)
	case !projectNameRE.MatchString(p.Name):
		return nil, fmt.Errorf("%s: project name %q may only contain letters, digits, '_', '.' and '-'", path, p.Name)
	case p.Runtime == "":
		return nil, fmt.Errorf("%s: the project has no runtime; add `runtime: yaml` (or hcl)", path)
	}
	if main := filepath.Clean(p.Main); p.Main != "" && (filepath.IsAbs(main) || main == ".." || strings.HasPrefix(main, ".."+string(filepath.Separator))) {
		return nil, p.mainError("%q is not inside the project's folder; name the program's folder or file relative to %s", p.Main, p.Dir)
	}
	for i, pl := range p.Plugins.Providers {
		if pl.Path != "" && !filepath.IsAbs(pl.Path) {
			p.Plugins.Providers[i].Path = filepath.Join(p.Dir, pl.Path)
		}
	}
	return p, nil
}

// CheckMain checks, before the program runs, that main: (if any) names a
// folder or file that exists, as Pulumi does; commands that do not run the
// program work without it.
func (p *Project) CheckMain() error {
	if p.Main == "" {
		return nil
	}
	_, err := os.Stat(filepath.Join(p.Dir, p.Main))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p.mainError("%q does not exist in %s; create the folder that holds the program there, or set main: to the folder (or file) it is in", p.Main, p.Dir)
	case err != nil:
		return p.mainError("%v", err)
	}
	return nil
}

// mainError is an error about main:, at its place in the project file.
func (p *Project) mainError(format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: main: %s", p.Path, p.mainLine, p.mainColumn, fmt.Sprintf(format, args...))
}

// ProgramDir returns the folder holding the program, as Pulumi reads
// `main:`: the project folder, the folder main names, or the folder of the
// file main names.
func (p *Project) ProgramDir() string {
	if p.Main == "" {
		return p.Dir
	}
	main := filepath.Join(p.Dir, p.Main)
	if p.mainIsFile() {
		return filepath.Dir(main)
	}
	return main
}

// EntryPoint returns the program's entry point in ProgramDir: the file
// `main:` names, or "" when it names a folder (or nothing), which language
// hosts read as the folder itself.
func (p *Project) EntryPoint() string {
	if p.Main == "" || !p.mainIsFile() {
		return ""
	}
	return filepath.Base(p.Main)
}

func (p *Project) mainIsFile() bool {
	fi, err := os.Stat(filepath.Join(p.Dir, p.Main))
	return err == nil && !fi.IsDir()
}

// StackConfigPath returns the path of the stack's configuration file.
func (p *Project) StackConfigPath(stack string) string {
	return filepath.Join(p.Dir, "Pulumi."+StackFileName(stack)+".yaml")
}
