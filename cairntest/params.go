package cairntest

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// Stack is the name of the stack each scenario starts with, in $STACK.
const Stack = "test"

// passphrase encrypts the secrets of the scenarios' stacks.
const passphrase = "cairn test"

// Options say which scenarios run against which project.
type Options struct {
	// Project is the folder of the project (its Pulumi.yaml) that each
	// scenario gets a copy of; default the current folder.
	Project string
	// Dirs are the folders holding the scenarios (*.txtar), relative to
	// Project; default tests.
	Dirs []string
	// Run, if set, selects the scenarios whose name (the file name without
	// .txtar) it matches.
	Run *regexp.Regexp
	// Cairn is the cairn binary that scenarios run; default cairn on PATH.
	Cairn string
	// Update rewrites the files of a scenario that a failing cmp compares
	// with, as testscript's UpdateScripts does.
	Update bool
}

// Run runs the scenarios as subtests of a Go test.
func Run(t *testing.T, opts Options) {
	p, err := Params(opts)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, p)
}

// Params returns the testscript parameters that run the scenarios the
// options select.
func Params(opts Options) (testscript.Params, error) {
	project, err := filepath.Abs(opts.Project)
	if err != nil {
		return testscript.Params{}, err
	}
	cairn := opts.Cairn
	if cairn == "" {
		cairn = "cairn"
	}
	if cairn, err = exec.LookPath(cairn); err != nil {
		return testscript.Params{}, fmt.Errorf("cannot find the cairn binary that scenarios run: %w", err)
	}
	if cairn, err = filepath.Abs(cairn); err != nil {
		return testscript.Params{}, err
	}
	dirs := opts.Dirs
	if len(dirs) == 0 {
		dirs = []string{"tests"}
	}
	var files, skip []string
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			d = filepath.Join(opts.Project, d)
		}
		found, err := scenarios(d, opts.Run)
		if err != nil {
			return testscript.Params{}, err
		}
		files = append(files, found...)
		if abs, err := filepath.Abs(d); err == nil {
			skip = append(skip, abs)
		}
	}
	switch {
	case len(files) == 0 && opts.Run != nil:
		return testscript.Params{}, fmt.Errorf("no scenario in %s matches -run %q", strings.Join(dirs, ", "), opts.Run)
	case len(files) == 0:
		return testscript.Params{}, fmt.Errorf("no scenario (*.txtar) in %s", strings.Join(dirs, ", "))
	}
	return testscript.Params{
		Files:              files,
		UpdateScripts:      opts.Update,
		RequireUniqueNames: true,
		Cmds:               commands,
		Setup: func(e *testscript.Env) error {
			return setup(e, project, cairn, skip)
		},
	}, nil
}

// scenarios lists the *.txtar files of dir whose names run matches.
func scenarios(dir string, run *regexp.Regexp) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("no scenario folder %s: write scenarios as %s", dir, filepath.Join(dir, "NAME.txtar"))
		}
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txtar")
		if ok && !e.IsDir() && (run == nil || run.MatchString(name)) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files, nil
}

// setup readies a scenario's work folder: a copy of the project, cairn on
// PATH, Cairn's home, backend and passphrase of its own, and the stack
// $STACK created and selected.
func setup(e *testscript.Env, project, cairn string, skip []string) error {
	if err := copyProject(e.WorkDir, project, skip); err != nil {
		return err
	}
	bin := filepath.Join(e.WorkDir, ".bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		return err
	}
	if err := os.Symlink(cairn, filepath.Join(bin, "cairn")); err != nil {
		return err
	}
	home := filepath.Join(e.WorkDir, ".cairn-home")
	e.Setenv("PATH", bin+string(filepath.ListSeparator)+e.Getenv("PATH"))
	e.Setenv("CAIRN_HOME", home)
	e.Setenv("CAIRN_BACKEND_URL", "file://"+filepath.Join(home, "state"))
	e.Setenv("CAIRN_CONFIG_PASSPHRASE", passphrase)
	e.Setenv("NO_COLOR", "1")
	e.Setenv("STACK", Stack)
	e.Setenv("PROJECT_DIR", project)
	// Pulumi's plugin cache (~/.pulumi/plugins) is found through HOME.
	if h, err := os.UserHomeDir(); err == nil {
		e.Setenv("HOME", h)
	}
	cmd := exec.Command(cairn, "stack", "init", Stack)
	cmd.Dir, cmd.Env = e.Cd, e.Vars
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("cairn stack init %s in the copy of %s: %v\n%s", Stack, project, err, out)
	}
	return nil
}

// copyProject copies the project's files into dst, leaving out what is the
// user's own (dot folders such as .git and .cairn, and stack configuration
// Pulumi.<stack>.yaml, salted for the user's passphrase), the scenario
// folders, and files the scenario itself provides. Installed npm packages
// (node_modules) are linked, not copied, and so are symbolic links.
func copyProject(dst, project string, skip []string) error {
	return filepath.WalkDir(project, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(project, path)
		if err != nil || rel == "." {
			return err
		}
		name := d.Name()
		leaveOut := strings.HasPrefix(name, ".") ||
			(filepath.Dir(rel) == "." && stackConfig(name))
		for _, s := range skip {
			leaveOut = leaveOut || path == s
		}
		switch {
		case leaveOut && d.IsDir():
			return filepath.SkipDir
		case leaveOut:
			return nil
		case name == "node_modules" && d.IsDir():
			if err := link(filepath.Join(dst, rel), path); err != nil {
				return err
			}
			return filepath.SkipDir
		case d.Type()&fs.ModeSymlink != 0:
			return link(filepath.Join(dst, rel), path)
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		target := filepath.Join(dst, rel)
		if _, err := os.Lstat(target); err == nil {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}

// link makes dst a symbolic link to what path is, unless the scenario
// provides dst.
func link(dst, path string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	return os.Symlink(target, dst)
}

// stackConfig reports whether a file name is that of a stack's
// configuration, Pulumi.<stack>.yaml.
func stackConfig(name string) bool {
	mid, ok := strings.CutPrefix(name, "Pulumi.")
	if !ok {
		return false
	}
	stack, ok := strings.CutSuffix(mid, ".yaml")
	if !ok {
		stack, ok = strings.CutSuffix(mid, ".yml")
	}
	return ok && stack != ""
}
