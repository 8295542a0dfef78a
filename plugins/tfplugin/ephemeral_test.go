package tfplugin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// logOf returns the lines of the test provider's ephemeral.log in dir.
func logOf(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "ephemeral.log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(strings.ReplaceAll(string(data), " ", "_"))
}

// An ephemeral resource is opened by an invoke of its token, renewed when
// the provider asks, and closed when the provider is, last opened first.
func TestEphemeralResource(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := load(t, "fwprovider", dir)
	const token = "cairnfw:ephemeral/token:Token"
	got, err := p.Invoke(ctx, provider.InvokeRequest{Token: token, Args: resource.Map{"name": resource.String("a"), "renew": resource.Bool(true)}})
	if err != nil || !got.Return["value"].IsSecret() || got.Return["value"].SecretElement().StringValue() != "token-a" {
		t.Fatalf("open a = %+v, %v", got, err)
	}
	if _, err := p.Invoke(ctx, provider.InvokeRequest{Token: token, Args: resource.Map{"name": resource.String("b")}}); err != nil {
		t.Fatal(err)
	}
	// The renewal was due at once; wait for it rather than for a time.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(strings.Join(logOf(t, dir), " "), "renew_a"); {
		if time.Now().After(deadline) {
			t.Fatalf("a was never renewed: %q", logOf(t, dir))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if log := logOf(t, dir); len(log) != 3 {
		t.Fatalf("before Close the log is %q, want open a, open b and renew a", log)
	}
	p.Close()
	log := logOf(t, dir)
	if want := []string{"close_b", "close_a"}; len(log) != 5 || log[3] != want[0] || log[4] != want[1] {
		t.Fatalf("after Close the log is %q, want it to end with %q", log, want)
	}
	bad, err := load(t, "fwprovider", dir).Invoke(ctx, provider.InvokeRequest{Token: token, Args: resource.Map{"renew": resource.Bool(true)}})
	if err != nil || len(bad.Failures) == 0 {
		t.Fatalf("open without its required name = %+v, %v", bad, err)
	}
}

// A write-only attribute reaches the provider but not the checked inputs,
// which the engine records, nor the outputs.
func TestWriteOnlyAttribute(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := load(t, "fwprovider", dir)
	const token = "cairnfw:index/file:File"
	urn := resource.URN("urn:pulumi:dev::proj::" + token + "::a")
	inputs := resource.Map{"name": resource.String("a"), "password_wo": resource.MakeSecret(resource.String("hunter2"))}
	check, err := p.Check(ctx, provider.CheckRequest{URN: urn, Type: token, News: inputs})
	if err != nil || len(check.Failures) > 0 {
		t.Fatalf("Check: %v %v", err, check.Failures)
	}
	if _, ok := check.Inputs["password_wo"]; ok || check.Inputs["name"].StringValue() != "a" {
		t.Fatalf("checked inputs = %v, want name without password_wo", check.Inputs)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Type: token, Inputs: check.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := created.Outputs["password_wo"]; ok {
		t.Errorf("outputs = %v, with password_wo", created.Outputs)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a.json")); err != nil || !strings.Contains(string(data), "hunter2") {
		t.Fatalf("the file did not get the password: %s %v", data, err)
	}
	same, err := p.Diff(ctx, provider.DiffRequest{URN: urn, Type: token, ID: created.ID, OldInputs: check.Inputs, OldOutputs: created.Outputs, News: check.Inputs})
	if err != nil || same.Changes != provider.DiffNone {
		t.Fatalf("Diff = %+v, %v; a write-only value changes nothing in the state", same, err)
	}
}
