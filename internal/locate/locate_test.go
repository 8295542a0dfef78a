package locate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// tree builds plugin folders: each path is created as an executable file.
func tree(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindAndBest(t *testing.T) {
	root := t.TempDir()
	cairn, pulumi, bin := filepath.Join(root, "cairn"), filepath.Join(root, "pulumi"), filepath.Join(root, "bin")
	tree(t, cairn,
		"resource-aws-v5.1.0/pulumi-resource-aws",
		"pulumi-resource-aws", // unversioned, in Cairn's folder
	)
	tree(t, pulumi,
		"resource-aws-v6.2.0/pulumi-resource-aws",
		"resource-aws-v6.10.0/pulumi-resource-aws",
		"resource-aws-v7.0.0/pulumi-resource-aws",
		"resource-aws-v7.1.0/pulumi-resource-aws", // an unfinished download
		"resource-aws-v7.1.0.partial",
		"resource-random-v4.0.0/pulumi-resource-random",
		"language-nodejs-v3.0.0/pulumi-language-nodejs",
	)
	tree(t, bin, "pulumi-resource-aws", "pulumi-language-python")
	if err := os.WriteFile(filepath.Join(bin, "pulumi-resource-notexec"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d := Dirs{Plugins: []string{cairn, pulumi}, Path: []string{bin}}

	var got []string
	for _, c := range d.Find(Resource, "aws") {
		got = append(got, c.Version+" "+c.Path)
	}
	want := []string{
		"7.0.0 " + filepath.Join(pulumi, "resource-aws-v7.0.0/pulumi-resource-aws"),
		"6.10.0 " + filepath.Join(pulumi, "resource-aws-v6.10.0/pulumi-resource-aws"),
		"6.2.0 " + filepath.Join(pulumi, "resource-aws-v6.2.0/pulumi-resource-aws"),
		"5.1.0 " + filepath.Join(cairn, "resource-aws-v5.1.0/pulumi-resource-aws"),
		" " + filepath.Join(cairn, "pulumi-resource-aws"),
		" " + filepath.Join(bin, "pulumi-resource-aws"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Find:\n got %q\nwant %q", got, want)
	}

	best := []struct {
		version, want string
	}{
		{"", "7.0.0"},
		{"6.0.0", "6.10.0"},
		{"6.2.0", "6.2.0"}, // installed exactly: not the newer 6.10.0
		{"v5.1.0", "5.1.0"},
		{"6.3.0", "6.10.0"},
		{"5.0.0", "5.1.0"},
		{"8.0.0", ""}, // no versioned match: the first unversioned binary
	}
	for _, b := range best {
		c, ok := Best(d.Find(Resource, "aws"), b.version)
		if !ok || c.Version != b.want {
			t.Errorf("Best(%q) = %q (%v), want %q", b.version, c.Version, ok, b.want)
		}
	}
	if _, ok := Best(d.Find(Resource, "missing"), ""); ok {
		t.Error("Best found a plugin that does not exist")
	}

	var names []string
	for _, c := range d.All(Language) {
		names = append(names, c.Name+"@"+c.Version)
	}
	if want := []string{"nodejs@3.0.0", "python@"}; !reflect.DeepEqual(names, want) {
		t.Errorf("All(Language) = %q, want %q", names, want)
	}
}

func TestInFolder(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "bin/pulumi-resource-aws")
	bin := filepath.Join(dir, "bin")
	if got, want := InFolder(bin, Resource, "aws"), filepath.Join(bin, "pulumi-resource-aws"); got != want {
		t.Errorf("InFolder(folder) = %s, want %s", got, want)
	}
	if got, want := InFolder(filepath.Join(bin, "pulumi-resource-aws"), Resource, "aws"), filepath.Join(bin, "pulumi-resource-aws"); got != want {
		t.Errorf("InFolder(binary) = %s, want %s", got, want)
	}
}

func TestDefaultDirs(t *testing.T) {
	t.Setenv("CAIRN_HOME", "/c")
	t.Setenv("PULUMI_HOME", "/p")
	t.Setenv("PATH", "/x"+string(os.PathListSeparator)+"/y")
	d := DefaultDirs()
	want := Dirs{Plugins: []string{"/c/plugins", "/p/plugins"}, Path: []string{"/x", "/y"}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("got %+v, want %+v", d, want)
	}
}
