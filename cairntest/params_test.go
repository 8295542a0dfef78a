package cairntest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStackConfig(t *testing.T) {
	for name, want := range map[string]bool{
		"Pulumi.yaml": false, "Pulumi.yml": false, "Pulumi.dev.yaml": true, "Pulumi.prod.yml": true,
		"Pulumi..yaml": false, "Main.yaml": false, "Pulumi.dev.json": false,
	} {
		if got := stackConfig(name); got != want {
			t.Errorf("stackConfig(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestCopyProject checks what a scenario's copy of the project holds: the
// project's files, not the user's own nor the scenarios, and the
// scenario's own files where both have one.
func TestCopyProject(t *testing.T) {
	project, dst := t.TempDir(), t.TempDir()
	files := map[string]string{
		"Pulumi.yaml": "project", "main.hcl": "program", "sub/Pulumi.dev.yaml": "data",
		"Pulumi.dev.yaml": "user's config", ".cairn/state": "user's state", "tests/a.txtar": "scenario",
		"given.txt": "project's",
	}
	for name, text := range files {
		path := filepath.Join(project, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dst, "given.txt"), []byte("scenario's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyProject(dst, project, []string{filepath.Join(project, "tests")}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Pulumi.yaml": "project", "main.hcl": "program", "sub/Pulumi.dev.yaml": "data", "given.txt": "scenario's",
		"Pulumi.dev.yaml": "", ".cairn/state": "", "tests/a.txtar": "",
	}
	for name, text := range want {
		got, err := os.ReadFile(filepath.Join(dst, name))
		switch {
		case text == "" && err == nil:
			t.Errorf("%s copied", name)
		case text != "" && string(got) != text:
			t.Errorf("%s = %q (%v), want %q", name, got, err, text)
		}
	}
}

// TestCopyProjectLinksNodeModules checks that a scenario's copy links the
// project's installed npm packages and its symbolic links instead of
// copying them.
func TestCopyProjectLinksNodeModules(t *testing.T) {
	project, dst := t.TempDir(), t.TempDir()
	pkg := filepath.Join(project, "node_modules", "left-pad", "package.json")
	if err := os.MkdirAll(filepath.Dir(pkg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkg, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("node_modules/left-pad", filepath.Join(project, "pad")); err != nil {
		t.Fatal(err)
	}
	if err := copyProject(dst, project, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"node_modules": filepath.Join(project, "node_modules"), "pad": filepath.Join(project, "node_modules", "left-pad")} {
		got, err := os.Readlink(filepath.Join(dst, name))
		if want, _ = filepath.EvalSymlinks(want); err != nil || got != want {
			t.Errorf("%s links to %q (%v), want %q", name, got, err, want)
		}
	}
}
