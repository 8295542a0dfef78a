package display

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// A name or ID that holds the text of a secret is masked like any text, and
// a warning says the state keeps it in plain text, once per resource.
func TestPlainSecretWarnings(t *testing.T) {
	urn := func(name string) resource.URN {
		return resource.NewURN(fxStack, fxProject, "", "random:index/randomPet:RandomPet", name)
	}
	named, byID, plain := urn(`pet["hunter22"]`), urn("bucket"), urn("other")
	var events []deploy.Event
	for _, s := range []struct {
		urn resource.URN
		id  string
	}{{named, "pet-1"}, {byID, "hunter22-bucket"}, {plain, "other-1"}} {
		st := withOutputs(fxState(s.urn, fxRoot, nil), s.id, nil)
		events = append(events, fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: s.urn, New: st, Logical: true}, 0, "")...)
	}
	masker := secrets.NewMasker("hunter22")
	got := renderEvents(t, Options{Operation: OperationUpdate, Masker: masker}, events)
	if n := strings.Count(got, "Its name holds the text of a secret, shown here as [secret]"); n != 1 {
		t.Errorf("%d warnings of a secret in a name, want 1:\n%s", n, got)
	}
	if n := strings.Count(got, "Its ID holds the text of a secret"); n != 1 {
		t.Errorf("%d warnings of a secret in an ID, want 1:\n%s", n, got)
	}
	if !strings.Contains(got, `pet["[secret]"]`) || strings.Contains(got, "hunter22") {
		t.Errorf("the secret is not masked:\n%s", got)
	}
	shown := renderEvents(t, Options{Operation: OperationUpdate, Masker: masker, ShowSecrets: true}, events)
	if strings.Contains(shown, "holds the text of a secret") || !strings.Contains(shown, `pet["hunter22"]`) {
		t.Errorf("with the secrets shown:\n%s", shown)
	}
}
