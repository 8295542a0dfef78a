package langhost_test

import (
	"os"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"golang.org/x/mod/modfile"
)

// TestGoSDKProgram builds a program written with the real Pulumi Go SDK
// with Cairn's Go language host and runs it.
func TestGoSDKProgram(t *testing.T) {
	e := newEnv(t)
	prog := e.goProgram("sdkprogram", nil)
	config := map[string]resource.Value{
		"proj:greeting": resource.String("hello"),
		"proj:password": resource.MakeSecret(resource.String("s3cret")),
	}

	// Preview.
	res, err := e.update(prog, config, true)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if n := res.Changes[deploy.OpCreate]; n < 10 {
		t.Errorf("the preview creates %d resources, want the stack, 2 providers, 3 items, a group, a pair and its 2 items", n)
	}
	if files, _ := os.ReadDir(e.cloud); len(files) != 0 {
		t.Errorf("the preview made %d items", len(files))
	}
	if !e.logged("hello from the Go SDK") {
		t.Error("the program's log message did not reach the diagnostics")
	}

	// Update.
	if _, err := e.update(prog, config, false); err != nil {
		t.Fatalf("update: %v", err)
	}
	byName := map[string]*resource.State{}
	for _, r := range e.snap.Resources {
		byName[r.URN.Name()] = r
	}
	for _, name := range []string{project + "-" + stack, "default", "explicit", "first", "second", "group", "child", "pair", "pair-left", "pair-right"} {
		if byName[name] == nil {
			t.Errorf("%s is not in the state", name)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	first, second := byName["first"], byName["second"]
	if !first.Inputs["password"].IsSecret() || !first.Outputs["password"].IsSecret() {
		t.Errorf("first's password: input %v, output %v; want secrets", first.Inputs["password"], first.Outputs["password"])
	}
	if !second.Inputs["value"].Equal(resource.Number(5)) {
		t.Errorf("second's value = %v, want first's length 5", second.Inputs["value"])
	}
	if !containsURN(second.Dependencies, first.URN) {
		t.Errorf("second depends on %v, want first", second.Dependencies)
	}
	if ref, err := resource.ParseProviderRef(second.Provider); err != nil || ref.URN != byName["explicit"].URN {
		t.Errorf("second's provider = %q, want the explicit provider", second.Provider)
	}
	if !second.Outputs["password"].IsSecret() {
		t.Errorf("second's password went through a provider that refuses secrets and came back %v", second.Outputs["password"])
	}
	if byName["child"].Parent != byName["group"].URN || byName["group"].Custom {
		t.Errorf("child's parent = %s, want the group component", byName["child"].Parent)
	}
	if byName["pair-left"].Parent != byName["pair"].URN || byName["pair"].Parent != byName[project+"-"+stack].URN {
		t.Errorf("the remote component's children are not under it: %s, %s", byName["pair-left"].Parent, byName["pair"].Parent)
	}
	outputs := byName[project+"-"+stack].Outputs
	if !outputs["firstLength"].Equal(resource.Number(5)) || !outputs["pairLeft"].Equal(resource.String("p-left")) ||
		!outputs["secondValue"].Equal(resource.Number(5)) {
		t.Errorf("stack outputs = %v", outputs)
	}
	if !outputs["password"].IsSecret() {
		t.Errorf("the password stack output = %v, want a secret", outputs["password"])
	}

	// Nothing changes on a second run.
	res, err = e.update(prog, config, false)
	if err != nil {
		t.Fatalf("second update: %v", err)
	}
	if res.HasChanges() {
		t.Errorf("the second update changed %v", res.Changes)
	}
}

func containsURN(us []resource.URN, u resource.URN) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

// TestSDKProgramUsesTheModulesSDK keeps the SDK program's module on the
// Pulumi SDK version the main module builds against, so the wire protocol
// the test checks is the one Cairn is built with.
func TestSDKProgramUsesTheModulesSDK(t *testing.T) {
	version := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := modfile.ParseLax(path, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f.Require {
			if r.Mod.Path == "github.com/pulumi/pulumi/sdk/v3" {
				return r.Mod.Version
			}
		}
		t.Fatalf("%s does not require the Pulumi SDK", path)
		return ""
	}
	main, program := version("../../go.mod"), version("testdata/sdkprogram/go.mod")
	if main != program {
		t.Errorf("testdata/sdkprogram requires the Pulumi SDK %s, the main module %s: run `go get github.com/pulumi/pulumi/sdk/v3@%s && go mod tidy` there", program, main, main)
	}
}
