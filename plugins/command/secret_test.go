package command

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// TestSecretInSecretOut checks that what a command prints is secret when
// anything that reaches its process is.
func TestSecretInSecretOut(t *testing.T) {
	hush := resource.MakeSecret(resource.String("hush"))
	tests := []struct {
		name   string
		inputs resource.Map
		want   bool
	}{
		{"plain", resource.Map{"create": resource.String("echo hi")}, false},
		{"create", resource.Map{"create": resource.MakeSecret(resource.String("echo hush"))}, true},
		{"environment", resource.Map{"create": resource.String("echo $X"), "environment": resource.Object(resource.Map{"X": hush})}, true},
		{"stdin", resource.Map{"create": resource.String("cat"), "stdin": hush}, true},
		{"interpreter", resource.Map{"create": resource.String("echo hi"), "interpreter": resource.Array(resource.String("/bin/sh"), resource.String("-c"))}, false},
		{"triggers", resource.Map{"create": resource.String("echo hi"), "triggers": resource.Array(hush)}, false},
	}
	p := New()
	for _, tt := range tests {
		resp, err := p.Create(context.Background(), provider.CreateRequest{Type: CommandType, Name: "c", Inputs: tt.inputs})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, k := range []string{"stdout", "stderr"} {
			if got := resp.Outputs[k].IsSecret(); got != tt.want {
				t.Errorf("%s: %s secret = %v, want %v", tt.name, k, got, tt.want)
			}
		}
	}

	// An update without a command keeps the previous output, secret when
	// the command that printed it was given a secret.
	resp, err := p.Update(context.Background(), provider.UpdateRequest{Type: CommandType, Name: "c",
		News:       resource.Map{"create": resource.String("echo hi")},
		OldOutputs: resource.Map{"stdout": resource.MakeSecret(resource.String("hush"))}})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Outputs["stdout"].IsSecret() {
		t.Errorf("the update dropped the secret mark of the previous stdout: %v", resp.Outputs["stdout"])
	}
}
