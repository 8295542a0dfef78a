package random

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

func TestImport(t *testing.T) {
	tests := []struct {
		typ        string
		id         string
		wantID     string // "" for an opaque ID
		wantInputs map[string]any
		wantOut    map[string]any // generated outputs, read through secrets
	}{
		{"RandomString", "myspecialdata", "myspecialdata", map[string]any{"length": 13}, map[string]any{"result": "myspecialdata"}},
		{"RandomString", "héllo", "héllo", map[string]any{"length": 5}, map[string]any{"result": "héllo"}},
		{"RandomPassword", "supersecret", "", map[string]any{"length": 11}, map[string]any{"result": "supersecret"}},
		{"RandomId", "p-9hUg", "p-9hUg", map[string]any{"byteLength": 4},
			map[string]any{"b64Url": "p-9hUg", "b64Std": "p+9hUg==", "hex": "a7ef6152", "dec": "2817483090"}},
		{"RandomId", "my-prefix-,p-9hUg", "p-9hUg", map[string]any{"byteLength": 4, "prefix": "my-prefix-"},
			map[string]any{"b64Url": "my-prefix-p-9hUg", "hex": "my-prefix-a7ef6152"}},
		{"RandomInteger", "15390,1,50000", "15390", map[string]any{"min": 1, "max": 50000}, map[string]any{"result": 15390}},
		{"RandomInteger", "7,1,9,abc", "7", map[string]any{"min": 1, "max": 9, "seed": "abc"}, map[string]any{"result": 7}},
		{"RandomBytes", "8/fu3q+2DcgSJ19i0jZ5Cw==", "", map[string]any{"length": 16},
			map[string]any{"base64": "8/fu3q+2DcgSJ19i0jZ5Cw==", "hex": "f3f7eedeafb60dc812275f62d236790b"}},
		{"RandomUuid", "AABBCCDD-EEFF-0011-2233-445566778899", "aabbccdd-eeff-0011-2233-445566778899", map[string]any{},
			map[string]any{"result": "aabbccdd-eeff-0011-2233-445566778899"}},
		{"RandomUuid7", "0197ad85-fe6e-7e92-a2f5-7550daa83030", "0197ad85-fe6e-7e92-a2f5-7550daa83030", map[string]any{},
			map[string]any{"result": "0197ad85-fe6e-7e92-a2f5-7550daa83030"}},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.id, func(t *testing.T) {
			resp, err := New().Read(context.Background(), provider.ReadRequest{Type: tok(tt.typ), ID: resource.ID(tt.id)})
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantID != "" && resp.ID != resource.ID(tt.wantID) || tt.wantID == "" && (resp.ID == "" || strings.Contains(tt.id, string(resp.ID))) {
				t.Errorf("ID %q, want %q", resp.ID, tt.wantID)
			}
			if want := resource.MapFromGo(tt.wantInputs); !resp.Inputs.Equal(want) {
				t.Errorf("inputs %v, want %v", resource.Object(resp.Inputs), resource.Object(want))
			}
			for k, w := range tt.wantOut {
				if got := resp.Outputs[k].Unsecret(); !got.Equal(resource.FromGo(w)) {
					t.Errorf("%s = %v, want %v", k, got, w)
				}
			}
			// The program that declares the read inputs sees no difference.
			c := check(t, tt.typ, resp.Inputs, tt.wantInputs, 1)
			d, err := New().Diff(context.Background(), provider.DiffRequest{Type: tok(tt.typ), OldInputs: resp.Inputs, OldOutputs: resp.Outputs, News: c.Inputs})
			if err != nil || d.Changes != provider.DiffNone {
				t.Errorf("diff after import: %v %v %v", d.Changes, d.DetailedDiff, err)
			}
		})
	}
}

func TestImportPasswordSecrets(t *testing.T) {
	resp, err := New().Read(context.Background(), provider.ReadRequest{Type: tok("RandomPassword"), ID: "supersecret"})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Outputs["result"].IsSecret() || !resp.Outputs["bcryptHash"].IsSecret() {
		t.Fatalf("outputs %v are not secret", resource.Object(resp.Outputs))
	}
	hash := resp.Outputs["bcryptHash"].SecretElement().StringValue()
	if err := bcrypt.CompareHashAndPassword([]byte(hash), []byte("supersecret")); err != nil {
		t.Errorf("bcryptHash: %v", err)
	}
}

func TestImportFailures(t *testing.T) {
	tests := []struct{ typ, id, want string }{
		{"RandomPet", "happy-cat", "a RandomPet cannot be imported"},
		{"RandomShuffle", "-", "a RandomShuffle cannot be imported"},
		{"RandomId", "not base64!", `"not base64!" is not unpadded base64url`},
		{"RandomInteger", "1,2", `the ID must be "<result>,<min>,<max>"`},
		{"RandomInteger", "x,1,2", `its result, "x", is not an integer`},
		{"RandomInteger", "9,1,2", "its result 9 is not between min 1 and max 2"},
		{"RandomBytes", "%%", "the ID must be the bytes in padded standard base64"},
		{"RandomUuid", "nope", "the ID must be a UUID"},
		{"RandomString", "", "it is empty"},
	}
	for _, tt := range tests {
		_, err := New().Read(context.Background(), provider.ReadRequest{Type: tok(tt.typ), ID: resource.ID(tt.id)})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: err = %v, want it to say %q", tt.typ, tt.id, err, tt.want)
		}
	}
}

// A refresh finds the resource as recorded: it exists nowhere else.
func TestRefresh(t *testing.T) {
	c := create(t, "RandomPassword", map[string]any{"length": 10}, 1, false)
	inputs := resource.Map{"length": resource.Number(10)}
	resp, err := New().Read(context.Background(), provider.ReadRequest{Type: tok("RandomPassword"), ID: c.ID, Inputs: inputs, Outputs: c.Outputs})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ID != c.ID || !resp.Outputs.Equal(c.Outputs) || !resp.Inputs.Equal(inputs) {
		t.Errorf("refresh changed the resource: %v", resource.Object(resp.Outputs))
	}
}

// An update (a change that replaces nothing) keeps the generated values.
func TestUpdateKeepsValues(t *testing.T) {
	c := create(t, "RandomString", map[string]any{"length": 10, "keepers": map[string]any{"a": "1"}}, 1, false)
	news := check(t, "RandomString", nil, map[string]any{"length": 10}, 2).Inputs
	resp, err := New().Update(context.Background(), provider.UpdateRequest{Type: tok("RandomString"), OldOutputs: c.Outputs, News: news})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Outputs["result"].Equal(c.Outputs["result"]) {
		t.Errorf("result %v, want %v", resp.Outputs["result"], c.Outputs["result"])
	}
	if _, ok := resp.Outputs["keepers"]; ok {
		t.Errorf("the removed keepers are still outputs")
	}
	if _, ok := resp.Outputs[seedKey]; ok {
		t.Errorf("the seed is an output")
	}
	if err := New().Delete(context.Background(), provider.DeleteRequest{Type: tok("RandomString"), ID: c.ID, Outputs: c.Outputs}); err != nil {
		t.Errorf("Delete: %v", err)
	}
}

// The schema is the embedded one, and every type it declares is
// implemented.
func TestSchema(t *testing.T) {
	providertest.CheckSchema(t, New(), schemaJSON, Version)
	for tok := range pkg.Resources {
		if _, ok := kinds[tok]; !ok {
			t.Errorf("%s is in the schema but not implemented", tok)
		}
	}
	for tok := range kinds {
		if _, ok := pkg.Resources[tok]; !ok {
			t.Errorf("%s is implemented but not in the schema", tok)
		}
	}
}
