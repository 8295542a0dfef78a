package funcs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// project writes a project into a temporary directory: files under root
// (the project), with the program in root/modules/app, and one file
// outside the project. It returns the directory and the library of the
// program.
func project(t *testing.T, files map[string]string) (string, map[string]function.Function) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, "root")
	return dir, Functions(Options{BaseDir: filepath.Join(root, "modules", "app"), RootDir: root})
}

var projectFiles = map[string]string{
	"outside.txt":                      "outside",
	"root/README.md":                   "project",
	"root/modules/app/main.txt":        "baﬄe 👍🏽\n",
	"root/modules/app/data.bin":        "\xff\xfe",
	"root/modules/app/dir/a.txt":       "a",
	"root/modules/app/dir/sub/b.txt":   "b",
	"root/modules/app/dir/sub/c.md":    "c",
	"root/modules/app/dir/.hidden.txt": "h",
	"root/modules/app/dir/sub/ü/👍.txt": "u",
}

func TestFileFunctions(t *testing.T) {
	dir, fns := project(t, projectFiles)
	outside := filepath.Join(dir, "outside.txt")
	app := filepath.Join(dir, "root", "modules", "app")
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	const escape = "path ../../../outside.txt is outside the project directory; use an absolute path to read files elsewhere"
	set := func(s ...string) cty.Value { return cty.SetVal(strVals(s)) }
	runFamily(t, fns, map[string][]callTest{
		"file": {
			{args: []cty.Value{str("main.txt")}, want: str("baﬄe 👍🏽\n")},
			{args: []cty.Value{str("../../README.md")}, want: str("project")},
			{args: []cty.Value{str("../../../outside.txt")}, err: escape},
			{args: []cty.Value{str(outside)}, want: str("outside")},
			{args: []cty.Value{str("missing.txt")}, err: "no file exists at missing.txt; file functions read only files that come with the program"},
			{args: []cty.Value{str("dir")}, err: "dir is a directory, not a file"},
			{args: []cty.Value{str("data.bin")}, err: "data.bin: the contents are not valid UTF-8; read binary files with filebase64"},
			{args: []cty.Value{secret(str("main.txt"))}, want: secret(str("baﬄe 👍🏽\n"))},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
		},
		"filebase64": {
			{args: []cty.Value{str("data.bin")}, want: str("//4=")},
			{args: []cty.Value{str("../../../outside.txt")}, err: escape},
		},
		"filemd5": {
			{args: []cty.Value{str("dir/a.txt")}, want: str("0cc175b9c0f1b6a831c399e269772661")},
			{args: []cty.Value{str("../../../outside.txt")}, err: escape},
		},
		"fileexists": {
			{args: []cty.Value{str("main.txt")}, want: cty.True},
			{args: []cty.Value{str("dir/sub/ü/👍.txt")}, want: cty.True},
			{args: []cty.Value{str("nope.txt")}, want: cty.False},
			{args: []cty.Value{str("dir")}, err: "dir exists but is not a regular file"},
			{args: []cty.Value{str("../../../outside.txt")}, err: escape},
			{args: []cty.Value{str(outside)}, want: cty.True},
			{args: []cty.Value{secret(str("main.txt"))}, want: secret(cty.True)},
		},
		"fileset": {
			{args: []cty.Value{str("."), str("dir/**/*.txt")}, want: set("dir/.hidden.txt", "dir/a.txt", "dir/sub/b.txt", "dir/sub/ü/👍.txt")},
			{args: []cty.Value{str("dir"), str("*.{txt,md}")}, want: set(".hidden.txt", "a.txt")},
			{args: []cty.Value{str("./dir"), str("./sub/?.*")}, want: set("sub/b.txt", "sub/c.md")},
			{args: []cty.Value{str("dir"), str("**/👍.txt")}, want: set("sub/ü/👍.txt")},
			{args: []cty.Value{str("dir"), str("*.go")}, want: cty.SetValEmpty(cty.String)},
			{args: []cty.Value{str("missing"), str("*")}, want: cty.SetValEmpty(cty.String)},
			{args: []cty.Value{str("dir"), str("../*")}, want: cty.SetValEmpty(cty.String)},
			{args: []cty.Value{str("dir"), str("[a")}, err: `"[a" is not a valid pattern`},
			{args: []cty.Value{str("../../.."), str("*")}, err: "path ../../.. is outside the project directory"},
			{args: []cty.Value{str(dir), str("*.txt")}, want: set("outside.txt")},
		},
		"abspath": {
			{args: []cty.Value{str("x/../ﬄ")}, want: str(filepath.ToSlash(filepath.Join(app, "ﬄ")))},
			{args: []cty.Value{str(outside)}, want: str(filepath.ToSlash(outside))},
		},
		"basename": {
			{args: []cty.Value{str("a/ﬄ 👍🏽.txt")}, want: str("ﬄ 👍🏽.txt")},
			{args: []cty.Value{str("")}, want: str(".")},
		},
		"dirname": {
			{args: []cty.Value{str("ü/ﬄ.txt")}, want: str("ü")},
			{args: []cty.Value{str("file")}, want: str(".")},
		},
		"pathexpand": {
			{args: []cty.Value{str("~")}, want: str(home)},
			{args: []cty.Value{str("~/ﬄ")}, want: str(filepath.Join(home, "ﬄ"))},
			{args: []cty.Value{str("a/~")}, want: str("a/~")},
			{args: []cty.Value{str("~bob/x")}, err: "only ~ (the current user's home directory) can be expanded, not ~user"},
		},
	})
}

// Without a RootDir, the program's directory is the root.
func TestFileConfinementDefaultsToBaseDir(t *testing.T) {
	dir, _ := project(t, projectFiles)
	fns := Functions(Options{BaseDir: filepath.Join(dir, "root", "modules", "app")})
	runFamily(t, fns, map[string][]callTest{
		"file": {
			{args: []cty.Value{str("dir/../main.txt")}, want: str("baﬄe 👍🏽\n")},
			{args: []cty.Value{str("../../README.md")}, err: "path ../../README.md is outside the project directory"},
		},
	})
}
