package langhost_test

import (
	"context"
	"encoding/base64"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// A Go SDK program using a parameterized package registers it over the
// gRPC monitor; the engine serves its resources by the kv plugin
// parameterized with the value the program gives, and records the
// parameterization with the provider. The program is built beforehand and
// named with the runtime option binary.
func TestGoSDKParameterizedPackage(t *testing.T) {
	e := newEnv(t)
	bin := filepath.Join(e.dir, "paramprogram")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("testdata", "paramprogram")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the Go SDK program: %v\n%s", err, b)
	}
	if _, err := e.update(e.goProgram("paramprogram", map[string]any{"binary": bin}), nil, false); err != nil {
		t.Fatalf("update: %v", err)
	}
	var item, prov *resource.State
	for _, r := range e.snap.Resources {
		switch r.Type {
		case "bucket:index:Item":
			item = r
		case "pulumi:providers:bucket":
			prov = r
		}
	}
	if item == nil || prov == nil {
		t.Fatalf("want a bucket:index:Item and its bucket provider in the state: %+v", e.snap.Resources)
	}
	if !item.Outputs["length"].Equal(resource.Number(5)) {
		t.Errorf("the item's length = %v, want 5", item.Outputs["length"])
	}
	internal := prov.Inputs["__internal"].ObjectValue()
	if !internal["name"].Equal(resource.String("kv")) || !internal["version"].Equal(resource.String("1.0.0")) ||
		!internal["parameterization"].Equal(resource.String(base64.StdEncoding.EncodeToString([]byte("bucket")))) {
		t.Errorf("the provider's internal inputs = %v", internal)
	}
	// A destroy runs no program: the state alone says how to parameterize.
	res, err := deploy.Destroy(context.Background(), deploy.Options{Project: project, Stack: stack, Host: e.resolver}, e.snap)
	if err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if n := len(res.Snapshot.Resources); n != 0 {
		t.Errorf("%d resources left after the destroy", n)
	}
}
