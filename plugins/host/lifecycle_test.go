package host_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
)

// pairProgram declares item a (with a secret input) and item b, whose value
// is a's revision: unknown in a preview of a's creation or update.
func pairProgram(value, key string) deploy.Program {
	return program(func(r *registrar) error {
		a, err := r.item(itemKV, "a", resource.Map{"value": str(value), "key": str(key), "password": resource.MakeSecret(str("pw"))})
		if err != nil {
			return err
		}
		_, err = r.item(itemKV, "b", resource.Map{"value": a.Outputs["revision"]}, func(req *deploy.RegisterRequest) {
			req.PropertyDependencies = map[string][]resource.URN{"value": {a.URN}}
			req.Dependencies = []resource.URN{a.URN}
		})
		return err
	})
}

func TestLifecycleOverGRPC(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})

	// Preview: nothing is made; b's input is unknown, and the unknown
	// crosses the wire to the plugin's Check and Create and back.
	var mu sync.Mutex
	var bInputs resource.Map
	opts := e.options(pairProgram("hello", "k1"), true)
	opts.Events = func(ev deploy.Event) {
		if s, ok := ev.(deploy.StepEvent); ok && s.Phase == deploy.StepDone && s.URN.Name() == "b" {
			mu.Lock()
			bInputs = s.New.Inputs
			mu.Unlock()
		}
	}
	res, err := e.run(deploy.Update, opts)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if res.Changes[deploy.OpCreate] < 3 {
		t.Errorf("preview changes = %v, want the stack, a and b created", res.Changes)
	}
	if v := bInputs["value"]; !v.IsUnknown() {
		t.Errorf("b's value in the preview = %v, want unknown", v)
	}
	if files, _ := os.ReadDir(e.cloud); len(files) != 0 {
		t.Errorf("the preview made %d items", len(files))
	}

	// Create.
	e.up(pairProgram("hello", "k1"))
	a, b := e.mustFind("a"), e.mustFind("b")
	if a.ID != "k1" || !a.Outputs["length"].Equal(resource.Number(5)) {
		t.Errorf("a = %s %v, want ID k1 and length 5", a.ID, a.Outputs)
	}
	if !a.Outputs["password"].IsSecret() {
		t.Errorf("a's password output = %v, want a secret", a.Outputs["password"])
	}
	if !b.Inputs["value"].Equal(resource.Number(1)) {
		t.Errorf("b's value = %v, want a's revision 1", b.Inputs["value"])
	}
	if _, _, saw, err := plugintest.ReadItem(e.cloud, "k1"); err != nil || !saw {
		t.Errorf("item k1: saw a secret = %v, %v; want the provider, which accepts secrets, to get one", saw, err)
	}

	// Update in place.
	res = e.up(pairProgram("hello!", "k1"))
	if res.Changes[deploy.OpUpdate] != 2 {
		t.Errorf("update changes = %v, want a and b updated", res.Changes)
	}
	if a := e.mustFind("a"); !a.Outputs["length"].Equal(resource.Number(6)) || !a.Outputs["revision"].Equal(resource.Number(2)) {
		t.Errorf("a's outputs after the update = %v", a.Outputs)
	}

	// Replace: a new key makes a new item and deletes the old one.
	res = e.up(pairProgram("hello!", "k2"))
	if res.Changes[deploy.OpReplace] != 1 {
		t.Errorf("replace changes = %v, want a replaced", res.Changes)
	}
	if a := e.mustFind("a"); a.ID != "k2" {
		t.Errorf("a's ID after the replacement = %s, want k2", a.ID)
	}
	if _, err := os.Stat(filepath.Join(e.cloud, "k1.json")); !os.IsNotExist(err) {
		t.Errorf("the replaced item k1 still exists: %v", err)
	}

	// Delete: b leaves the program.
	b = e.mustFind("b")
	res = e.up(program(func(r *registrar) error {
		_, err := r.item(itemKV, "a", resource.Map{"value": str("hello!"), "key": str("k2"), "password": resource.MakeSecret(str("pw"))})
		return err
	}))
	if res.Changes[deploy.OpDelete] != 1 || e.find("b") != nil {
		t.Errorf("removing b: changes %v", res.Changes)
	}
	if _, err := os.Stat(filepath.Join(e.cloud, string(b.ID)+".json")); !os.IsNotExist(err) {
		t.Errorf("the deleted item %s still exists: %v", b.ID, err)
	}

	// Import an item made outside Cairn.
	if err := plugintest.WriteItem(e.cloud, "ext-1", resource.Map{"value": str("imported")}); err != nil {
		t.Fatal(err)
	}
	_, err = e.run(func(ctx context.Context, o deploy.Options, s *snapshot.Snapshot) (*deploy.Result, error) {
		return deploy.Import(ctx, o, s, []deploy.ImportSpec{{Type: itemKV, Name: "c", ID: "ext-1"}})
	}, e.options(nil, false))
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if c := e.mustFind("c"); c.ID != "ext-1" || !c.Inputs["value"].Equal(str("imported")) {
		t.Errorf("imported c = %s %v", c.ID, c.Inputs)
	}

	// Refresh: a changed behind Cairn's back, c was deleted.
	if err := plugintest.WriteItem(e.cloud, "k2", resource.Map{"value": resource.Number(99), "password": str("pw")}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(e.cloud, "ext-1.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.run(deploy.Refresh, e.options(nil, false)); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if e.find("c") != nil {
		t.Error("refresh kept c, which no longer exists")
	}
	a = e.mustFind("a")
	if !a.Outputs["value"].Equal(resource.Number(99)) || !a.Outputs["password"].IsSecret() {
		t.Errorf("a's outputs after the refresh = %v, want value 99 and the password still secret", a.Outputs)
	}

	// Destroy everything.
	if _, err := e.run(deploy.Destroy, e.options(nil, false)); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if len(e.snap.Resources) != 0 {
		t.Errorf("destroy left %d resources", len(e.snap.Resources))
	}
	if files, _ := os.ReadDir(e.cloud); len(files) != 0 {
		t.Errorf("destroy left %d items in the cloud", len(files))
	}
}

func TestSecretsSurviveProvidersThatRefuseThem(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})
	secret := resource.MakeSecret(str("pw"))
	e.up(program(func(r *registrar) error {
		// Negotiated in Configure: an explicit provider told not to accept
		// secrets.
		prov, err := r.info.Monitor.RegisterResource(r.ctx, deploy.RegisterRequest{Type: resource.ProviderType("kv"),
			Name: "plain", Custom: true, Parent: r.root, Properties: resource.Map{"acceptSecrets": resource.Bool(false)}})
		if err != nil {
			return err
		}
		ref := resource.ProviderRef{URN: prov.URN, ID: prov.ID}.String()
		if _, err := r.item(itemKV, "configured", resource.Map{"value": secret, "key": str("configured")},
			func(req *deploy.RegisterRequest) { req.Provider = ref }); err != nil {
			return err
		}
		// Negotiated in the handshake.
		_, err = r.item("kvhs:index:Item", "handshaken", resource.Map{"value": secret, "key": str("handshaken"),
			"nested": resource.Object(resource.Map{"inner": secret, "plain": str("p")})})
		return err
	}))
	for _, name := range []string{"configured", "handshaken"} {
		r := e.mustFind(name)
		if !r.Inputs["value"].IsSecret() || !r.Outputs["value"].IsSecret() {
			t.Errorf("%s: value input %v, output %v; want both secret", name, r.Inputs["value"], r.Outputs["value"])
		}
		if _, _, saw, err := plugintest.ReadItem(e.cloud, resource.ID(name)); err != nil || saw {
			t.Errorf("%s: the provider saw a secret (%v, %v), but it refused them", name, saw, err)
		}
	}
	if nested := e.mustFind("handshaken").Outputs["nested"]; !nested.ContainsSecrets() {
		t.Errorf("nested output = %v, want its secret kept", nested)
	}
}
