package tfbuiltin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
)

// provisionerLog collects what provisioners print.
type provisionerLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *provisionerLog) add(e deploy.DiagEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, e.Severity.String()+": "+e.Message)
}

func (l *provisionerLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func newProvisioners(t *testing.T) (*Provider, string, *provisionerLog) {
	dir := t.TempDir()
	log := &provisionerLog{}
	p, err := Factory(dir, log.add).New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Provider), dir, log
}

func local(command string, more resource.Map) resource.Value {
	m := resource.Map{"command": resource.String(command)}
	for k, v := range more {
		m[k] = v
	}
	return resource.Object(m)
}

func provisioners(trigger string, create, destroy []resource.Value) resource.Map {
	return resource.Map{tfstate.TriggerKey: resource.String(trigger), "type": resource.String("null_resource"),
		"create": resource.Array(create...), "destroy": resource.Array(destroy...)}
}

const provURN = resource.URN("urn:pulumi:dev::proj::null:index/resource:Resource$terraform:index:Provisioners::a[\"x\"].web[0]")

// TestProvisionersCreate runs the creation-time provisioners in order,
// in the project's folder with their environment, printing what they
// write under the resource's address; a failure with on_failure =
// continue warns and goes on. A preview runs nothing.
func TestProvisionersCreate(t *testing.T) {
	p, dir, log := newProvisioners(t)
	in := provisioners("id-1", []resource.Value{
		local("echo first > out.txt; echo to-stdout; echo to-stderr >&2", nil),
		local("echo soft-failure; exit 4", resource.Map{"onFailure": resource.String("continue")}),
		local("echo $GREETING >> out.txt", resource.Map{"environment": resource.Object(resource.Map{"GREETING": resource.String("hello")}),
			"quiet": resource.Bool(true)}),
	}, nil)
	req := provider.CreateRequest{URN: provURN, Type: tfstate.ProvisionersType, Inputs: in, Preview: true}
	if _, err := p.Create(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); !os.IsNotExist(err) {
		t.Fatalf("a preview ran a provisioner: %v", err)
	}
	req.Preview = false
	resp, err := p.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ID != "id-1" {
		t.Errorf("ID %q, want the resource's, id-1", resp.ID)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
	if string(data) != "first\nhello\n" {
		t.Errorf("out.txt = %q, want the two commands' lines in order", data)
	}
	text := log.text()
	for _, want := range []string{
		`info: module.a["x"].null_resource.web[0] (local-exec): Executing: ["/bin/sh" "-c" "echo first > out.txt; echo to-stdout; echo to-stderr >&2"]`,
		`info: module.a["x"].null_resource.web[0] (local-exec): to-stdout`,
		`info: module.a["x"].null_resource.web[0] (local-exec): to-stderr`,
		`warning: module.a["x"].null_resource.web[0] (local-exec): the command failed and on_failure is continue, so the step goes on: the local-exec command failed with exit code 4:` + "\nsoft-failure",
		`info: module.a["x"].null_resource.web[0] (local-exec): Executing: Suppressed by quiet=true`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "GREETING") {
		t.Errorf("a quiet provisioner's command shows:\n%s", text)
	}
}

// TestProvisionersFail fails the step with the command's exit code and
// output when on_failure is fail (the default), and runs no later one.
func TestProvisionersFail(t *testing.T) {
	p, dir, _ := newProvisioners(t)
	in := provisioners("id-1", []resource.Value{local("echo boom; exit 3", nil), local("touch later", nil)}, nil)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: provURN, Type: tfstate.ProvisionersType, Inputs: in})
	if err == nil || !strings.Contains(err.Error(), "local-exec provisioner error") || !strings.Contains(err.Error(), "exit code 3") ||
		!strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want the exit code and output", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "later")); !os.IsNotExist(err) {
		t.Errorf("a provisioner after the failed one ran")
	}
}

// TestProvisionersSensitive suppresses the command and output of a
// provisioner whose configuration holds a secret, in its error too.
func TestProvisionersSensitive(t *testing.T) {
	p, _, log := newProvisioners(t)
	env := resource.MakeSecret(resource.Object(resource.Map{"PW": resource.String("hunter2")}))
	in := provisioners("id-1", []resource.Value{local("echo $PW; exit 1", resource.Map{"environment": env})}, nil)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: provURN, Type: tfstate.ProvisionersType, Inputs: in})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("err = %v, want a failure that does not show the secret", err)
	}
	if text := log.text(); strings.Contains(text, "hunter2") || !strings.Contains(text, "(output suppressed due to sensitive value in config)") {
		t.Errorf("the output of a sensitive provisioner shows:\n%s", text)
	}
}

// TestProvisionersDiff replaces the provisioners of a resource with a new
// (or unknown) ID, updates those of one replaced create-before-destroy,
// and records any other change without running anything.
func TestProvisionersDiff(t *testing.T) {
	p, _, _ := newProvisioners(t)
	old := provisioners("id-1", []resource.Value{local("echo a", nil)}, nil)
	for _, c := range []struct {
		what    string
		news    resource.Map
		replace bool
	}{
		{"changed commands", provisioners("id-1", []resource.Value{local("echo b", nil)}, []resource.Value{local("echo c", nil)}), false},
		{"a new ID", provisioners("id-2", []resource.Value{local("echo a", nil)}, nil), true},
		{"an unknown ID", resource.Map{tfstate.TriggerKey: resource.Unknown(), "type": resource.String("null_resource")}, true},
		{"a new ID, create before destroy", resource.Map{tfstate.TriggerKey: resource.String("id-2"), "createBeforeDestroy": resource.Bool(true)}, false},
	} {
		resp, err := p.Diff(context.Background(), provider.DiffRequest{Type: tfstate.ProvisionersType, OldInputs: old, OldOutputs: old, News: c.news})
		if err != nil {
			t.Fatal(err)
		}
		changes := c.replace || c.news["createBeforeDestroy"].IsBool()
		if replace := len(resp.ReplaceKeys) > 0; replace != c.replace || (resp.Changes == provider.DiffSome) != changes {
			t.Errorf("%s: diff %+v, want replace %v, changes %v", c.what, resp, c.replace, changes)
		}
	}
}

// TestProvisionersUpdate runs the creation-time provisioners of a
// resource replaced create-before-destroy, and nothing else: the old
// object's destroy-time ones do not run, as in Terraform.
func TestProvisionersUpdate(t *testing.T) {
	p, dir, _ := newProvisioners(t)
	in := func(id string) resource.Map {
		return provisioners(id, []resource.Value{local("echo "+id+" >> made", nil)}, []resource.Value{local("touch destroyed", nil)})
	}
	for _, id := range []string{"id-1", "id-2"} {
		if _, err := p.Update(context.Background(), provider.UpdateRequest{URN: provURN, Type: tfstate.ProvisionersType,
			OldInputs: in("id-1"), News: in(id)}); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "made")); string(data) != "id-2\n" {
		t.Errorf("made = %q, want the new object's provisioner only", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "destroyed")); !os.IsNotExist(err) {
		t.Errorf("an update ran a destroy-time provisioner")
	}
}

// TestProvisionersDelete runs the destroy-time provisioners as the state
// recorded them, and fails the delete when one fails.
func TestProvisionersDelete(t *testing.T) {
	p, dir, _ := newProvisioners(t)
	in := provisioners("id-1", []resource.Value{local("touch created", nil)},
		[]resource.Value{local("echo gone > destroyed", resource.Map{"workingDir": resource.String("sub")})})
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := p.Delete(context.Background(), provider.DeleteRequest{URN: provURN, Type: tfstate.ProvisionersType, ID: "id-1", Inputs: in, Outputs: in}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "sub", "destroyed")); string(data) != "gone\n" {
		t.Errorf("sub/destroyed = %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "created")); !os.IsNotExist(err) {
		t.Errorf("a delete ran a creation-time provisioner")
	}
	in["destroy"] = resource.Array(local("exit 5", nil))
	if err := p.Delete(context.Background(), provider.DeleteRequest{URN: provURN, Type: tfstate.ProvisionersType, Inputs: in}); err == nil {
		t.Errorf("a failed destroy-time provisioner did not fail the delete")
	}
}

func TestAddress(t *testing.T) {
	for name, want := range map[string]string{
		"web":                    "null_resource.web",
		"web[0]":                 "null_resource.web[0]",
		`a["x.y"].b.web["k.z"]`:  `module.a["x.y"].module.b.null_resource.web["k.z"]`,
		`a["q\"].["].web["a.b"]`: `module.a["q\"].["].null_resource.web["a.b"]`,
	} {
		if got := address(name, "null_resource"); got != want {
			t.Errorf("address(%q) = %q, want %q", name, got, want)
		}
	}
}
