package tfplugin

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMirror finds the newest version a constraint allows, in either
// default host, and says where to put a missing provider.
func TestMirror(t *testing.T) {
	dir := t.TempDir()
	platform := runtime.GOOS + "_" + runtime.GOARCH
	for _, p := range []string{
		"registry.opentofu.org/acme/box/1.2.0/" + platform + "/terraform-provider-box_v1.2.0_x5",
		"registry.terraform.io/acme/box/1.9.1/" + platform + "/terraform-provider-box",
		"registry.opentofu.org/acme/box/2.0.0/" + platform + "/terraform-provider-box",
		"registry.opentofu.org/acme/box/1.10.0/other_arch/terraform-provider-box",
	} {
		path := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", t.TempDir())
	m := Mirror{Dirs: []string{dir}}
	for constraints, want := range map[string]string{"~> 1.2": "1.9.1", "": "2.0.0", "< 1.5": "1.2.0", "= 1.2.0": "1.2.0"} {
		exe, version, err := m.Install(context.Background(), "acme/box", constraints)
		if err != nil || version != want || !strings.HasPrefix(filepath.Base(exe), "terraform-provider-box") {
			t.Errorf("Install(%q) = %s %s %v, want version %s", constraints, exe, version, err, want)
		}
	}
	if _, _, err := m.Install(context.Background(), "acme/box", "~> 3.0"); err == nil || !strings.Contains(err.Error(), "terraform-provider-box on PATH") {
		t.Errorf("a missing version: %v", err)
	}
	if _, _, err := m.Install(context.Background(), "box", ""); err == nil || !strings.Contains(err.Error(), "NAMESPACE/TYPE") {
		t.Errorf("a bad source: %v", err)
	}
}
