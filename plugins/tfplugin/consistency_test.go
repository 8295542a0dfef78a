package tfplugin_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// TestFrameworkProviderChecks makes the framework provider misbehave and
// expects Terraform's checks: an invalid plan fails before anything is
// written; an inconsistent result or a failed create keeps the object,
// tainted, with the error naming the provider and the attribute.
func TestFrameworkProviderChecks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := load(t, "fwprovider", dir)
	const token = "cairnfw:index/file:File"
	create := func(name, content string) (provider.CreateResponse, error) {
		return p.Create(ctx, provider.CreateRequest{Type: token, Inputs: resource.Map{"name": resource.String(name), "content": resource.String(content)}})
	}

	_, err := create("replanned", "replan")
	if err == nil || !strings.Contains(err.Error(), "cairn/cairnfw produced an invalid plan for cairnfw_file: content: planned otherwise than configured") {
		t.Errorf("an invalid plan: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "replanned.json")); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("an invalid plan was applied: %v", serr)
	}

	for _, c := range []struct{ content, reason, attr, want string }{
		{"drift", "cairn/cairnfw produced an inconsistent result after apply for cairnfw_file: content: has another value than planned", "content", "drifted"},
		{"unknown", "cairn/cairnfw produced an invalid result after apply for cairnfw_file: size: it is still unknown", "size", ""},
		{"partial", "the file " + "partial was written but cannot be finished", "content", "partial"},
	} {
		_, err := create(c.content, c.content)
		var ie *provider.InitError
		if !errors.As(err, &ie) || !ie.Taint || ie.ID != resource.ID(c.content) {
			t.Errorf("%s: Create = %#v, want a tainted object", c.content, err)
			continue
		}
		if !strings.Contains(ie.Error(), c.reason) {
			t.Errorf("%s: the error %q does not say %q", c.content, ie.Error(), c.reason)
		}
		got := ie.Outputs[c.attr]
		if c.want == "" && !got.IsNull() || c.want != "" && got.StringValue() != c.want {
			t.Errorf("%s: recorded %s = %v, want %q", c.content, c.attr, got, c.want)
		}
	}

	// An update that fails keeps the object it returns, untainted.
	inputs := resource.Map{"name": resource.String("u"), "content": resource.String("one")}
	created, err := p.Create(ctx, provider.CreateRequest{Type: token, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	news := resource.Map{"name": resource.String("u"), "content": resource.String("partial")}
	_, err = p.Update(ctx, provider.UpdateRequest{Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: news})
	var ie *provider.InitError
	if !errors.As(err, &ie) || ie.Taint || ie.Outputs["content"].StringValue() != "partial" {
		t.Errorf("a failed update = %#v", err)
	}
}

// TestSDKProviderChecks: Terraform tolerates the legacy SDK's
// inconsistent results (a warning in the log), not a create that returns
// no object; a failed create keeps the object, tainted.
func TestSDKProviderChecks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := load(t, "sdkprovider", dir)
	const token = "cairnsdk:index/item:Item"
	drift, err := p.Create(ctx, provider.CreateRequest{Type: token, Inputs: resource.Map{"name": resource.String("d"), "value": resource.String("drift")}})
	if err != nil || drift.Outputs["value"].StringValue() != "drifted" {
		t.Errorf("an inconsistent result of the legacy SDK = %+v, %v", drift, err)
	}
	vanished, err := p.Create(ctx, provider.CreateRequest{Type: token, Inputs: resource.Map{"name": resource.String("v"), "value": resource.String("vanish")}})
	var ie *provider.InitError
	if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "cairn/cairnsdk returned no object for cairnsdk_item after applying a change that keeps one") {
		t.Errorf("a create returning no object = %+v, %v", vanished, err)
	}
	_, err = p.Create(ctx, provider.CreateRequest{Type: token, Inputs: resource.Map{"name": resource.String("p"), "value": resource.String("partial")}})
	if !errors.As(err, &ie) || !ie.Taint || ie.ID != "p" || !strings.Contains(ie.Error(), "the item p was written but cannot be finished") {
		t.Errorf("a failed create = %#v", err)
	}
}
