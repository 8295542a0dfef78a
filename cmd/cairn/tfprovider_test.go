package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// tfProviderCmd builds a test Terraform provider of
// plugins/tfplugin/testdata into a filesystem mirror: "tfprovider NAME
// DIR" puts testdata/NAME's terraform-provider-TYPE (TYPE is NAME's
// module name less the prefix) in
// DIR/registry.opentofu.org/cairn/TYPE/1.0.0/OS_ARCH/.
func tfProviderCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tfprovider NAME DIR")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "plugins", "tfplugin", "testdata", args[0]))
	ts.Check(err)
	mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	ts.Check(err)
	first, _, _ := strings.Cut(string(mod), "\n")
	typ := strings.TrimPrefix(filepath.Base(strings.TrimPrefix(first, "module ")), "terraform-provider-")
	exe := filepath.Join(ts.MkAbs(args[1]), "registry.opentofu.org", "cairn", typ, "1.0.0", runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-"+typ)
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		ts.Fatalf("building %s: %v\n%s", args[0], err, out)
	}
}
