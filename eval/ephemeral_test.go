package eval_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
)

// tfFiles serves a package as a Terraform provider's with a resource
// type whose password_wo is write-only, and an ephemeral resource.
type tfFiles struct{ *monitor }

func (tfFiles) Schema(_ context.Context, pkg, _ string) (*schema.Package, error) {
	str := schema.TypeSpec{Type: "string"}
	wo := (&schema.Terraform{WriteOnly: true}).Language()
	return &schema.Package{Name: pkg, Language: (&schema.Terraform{Source: "acme/tk"}).Language(),
		Resources: map[string]*schema.Resource{"tk:index/file:File": {
			InputProperties: map[string]*schema.Property{"name": {TypeSpec: str}, "password_wo": {TypeSpec: str, Language: wo}},
			Properties:      map[string]*schema.Property{"name": {TypeSpec: str}}}},
		Functions: map[string]*schema.Function{"tk:ephemeral/token:Token": {
			Inputs:   &schema.ObjectTyp{Properties: map[string]*schema.Property{"x": {TypeSpec: str}}},
			Outputs:  &schema.ObjectTyp{Properties: map[string]*schema.Property{"echo": {TypeSpec: schema.TypeSpec{Ref: "pulumi.json#/Any"}}}},
			Language: (&schema.Terraform{Ephemeral: "tk_token"}).Language()}},
	}, nil
}

// TestEphemeralResource checks an ephemeral resource's value: a
// write-only argument takes it (as a secret), and so does a local value;
// another argument refuses it, as an output refuses the count of its
// instances, which is ephemeral too.
func TestEphemeralResource(t *testing.T) {
	tok := func() *eval.Invoke {
		return &eval.Invoke{Decl: decl("tok", "ephemeral"), Token: "tk:ephemeral/token:Token", Args: expr(t, `{ x = "t" }`), Ephemeral: true}
	}
	local := &eval.Local{Decl: decl("pw", "local value"), Value: expr(t, `"${tok.echo.x}!"`)}
	file := &eval.Resource{Decl: decl("f", "resource"), Type: "tk:index/file:File", Properties: expr(t, `{ name = "f", password_wo = pw }`)}
	m := tfFiles{newMonitor()}
	if err := run(t, &eval.Program{Root: scope(tok(), local, file), Schemas: m}, m.monitor, nil); err != nil {
		t.Fatal(err)
	}
	props := m.regs["f"].Properties
	if pw := props["password_wo"]; !pw.IsSecret() || !pw.Unsecret().Equal(resource.String("t!")) {
		t.Errorf("password_wo = %v, want the secret t!", pw)
	}
	if name := props["name"]; !name.Equal(resource.String("f")) {
		t.Errorf("name = %v, want f", name)
	}

	counted := tok()
	counted.Expansion.Count = expr(t, `2`)
	bad := &eval.Resource{Decl: decl("g", "resource"), Type: "tk:index/file:File", Properties: expr(t, `{ name = tok[0].echo.x }`)}
	out := &eval.Output{Decl: decl("n", "output"), Value: expr(t, `length(tok)`)}
	m = tfFiles{newMonitor()}
	err := run(t, &eval.Program{Root: scope(counted, bad, out), Schemas: m}, m.monitor, nil)
	var de *eval.DiagnosticsError
	if !errors.As(err, &de) || len(de.Diags) != 2 {
		t.Fatalf("want two errors, got %v", err)
	}
	var got []string
	for _, d := range de.Diags {
		got = append(got, d.Summary)
	}
	if s := strings.Join(got, "; "); !strings.Contains(s, "Ephemeral value used in non-ephemeral context") || !strings.Contains(s, "Output does not allow ephemeral value") {
		t.Errorf("errors: %s", s)
	}
}
