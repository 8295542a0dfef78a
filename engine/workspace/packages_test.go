package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPackages(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "Pulumi.yaml")
	src := "name: site # the site\nruntime: yaml\npackages:\n  short: tf@0.8.0\nresources: {}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddPackage(path, "bucket", PackageSpec{Source: "tf", Version: "0.8.0", Parameters: []string{"hashicorp/bucket"}}); err != nil {
		t.Fatal(err)
	}
	if err := AddPackage(path, "short", PackageSpec{Source: "kv"}); err != nil {
		t.Fatal(err)
	}
	p, err := ReadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]PackageSpec{
		"bucket": {Source: "tf", Version: "0.8.0", Parameters: []string{"hashicorp/bucket"}},
		"short":  {Source: "kv"},
	}
	if !reflect.DeepEqual(p.Packages, want) {
		t.Errorf("packages = %+v, want %+v", p.Packages, want)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "# the site") || !strings.Contains(string(data), "resources: {}") {
		t.Errorf("the rest of the file was not kept:\n%s", data)
	}
	if err := os.WriteFile(path, []byte("name: x\nruntime: yaml\npackages:\n  bad: {version: 1.0.0}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadProject(path); err == nil || !strings.Contains(err.Error(), "needs a source") {
		t.Errorf("a package without a source: %v", err)
	}
}
