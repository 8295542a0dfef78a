package deploy

import (
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// TestVerifySecretsGatesChanges checks that no resource is created,
// updated or deleted before the stack's secrets are verified, and that a
// failed verification changes nothing; a preview does not wait for it.
func TestVerifySecretsGatesChanges(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("a", map[string]any{"x": "1"})))
	before := dump(h.snap)
	h.log.take()

	wrong := errors.New("incorrect passphrase")
	calls := 0
	verify := func(o *Options) { o.VerifySecrets = func() error { calls++; return wrong } }
	if _, err := h.preview(program(res("a", map[string]any{"x": "2"}), res("b", nil)), verify); err != nil {
		t.Fatalf("preview: %v", err)
	}
	_, err := h.up(program(res("a", map[string]any{"x": "2"}), res("b", nil)), verify)
	if !errors.Is(err, wrong) && (err == nil || !strings.Contains(err.Error(), "operations failed")) {
		t.Fatalf("up with unverified secrets = %v, want the verification error", err)
	}
	equal(t, "provider changes", append(h.log.filter("Create"), h.log.filter("Update")...), []string(nil))
	if got := dump(h.snap); got != before {
		t.Errorf("the state changed:\n%s\nwant:\n%s", got, before)
	}
	if calls != 1 {
		t.Errorf("VerifySecrets called %d times, want once", calls)
	}

	_, err = h.destroy(verify)
	if err == nil {
		t.Fatal("destroy with unverified secrets succeeded")
	}
	equal(t, "deletes", h.log.filter("Delete"), []string(nil))
}

// TestMaskerLearnsSecrets checks that the deployment tells the masker the
// secrets of its configuration, inputs and provider outputs, and masks
// what it keeps of provider errors in the state.
func TestMaskerLearnsSecrets(t *testing.T) {
	h := newHarness(t)
	h.config = map[string]resource.Value{"proj:token": resource.MakeSecret(resource.String("config-secret"))}
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(provider.CreateRequest) (provider.CreateResponse, error) {
			return provider.CreateResponse{}, &provider.InitError{ID: "id-1",
				Outputs: resource.Map{"out": resource.MakeSecret(resource.String("output-secret"))},
				Reasons: []string{"failed with input-secret"}}
		}
	})
	m := secrets.NewMasker()
	in := res("a", nil)
	in.Properties = resource.Map{"in": resource.MakeSecret(resource.String("input-secret"))}
	_, _ = h.up(program(in), func(o *Options) { o.Masker = m })
	for _, s := range []string{"config-secret", "input-secret", "output-secret"} {
		if got := m.Mask(s); got != secrets.Masked {
			t.Errorf("the masker did not learn %q", s)
		}
	}
	if got := h.snap.Resources[len(h.snap.Resources)-1].InitErrors; len(got) != 1 || got[0] != "failed with [secret]" {
		t.Errorf("initErrors in the state = %q, want the secret masked", got)
	}
}

// TestOutputsHoldingKnownSecretsAreSecret checks that an output holding the
// plaintext of a secret the masker knows (here a configuration secret)
// is recorded secret, at any depth, on create and on update; the others
// are left as they are.
func TestOutputsHoldingKnownSecretsAreSecret(t *testing.T) {
	h := newHarness(t)
	h.config = map[string]resource.Value{"proj:token": resource.MakeSecret(resource.String("config-secret"))}
	outputs := resource.Map{
		"stdout": resource.String("printed config-secret here"),
		"nested": resource.Object(resource.Map{"list": resource.Array(resource.String("x"), resource.String("config-secret"))}),
		"plain":  resource.String("nothing to hide"),
	}
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(provider.CreateRequest) (provider.CreateResponse, error) {
			return provider.CreateResponse{ID: "id-1", Outputs: outputs}, nil
		}
		p.UpdateF = func(provider.UpdateRequest) (provider.UpdateResponse, error) {
			return provider.UpdateResponse{Outputs: outputs}, nil
		}
	})
	for _, x := range []string{"1", "2"} { // a create, then an update
		if _, err := h.up(program(res("a", map[string]any{"x": x})), func(o *Options) { o.Masker = secrets.NewMasker() }); err != nil {
			t.Fatal(err)
		}
		got := h.snap.Resources[len(h.snap.Resources)-1].Outputs
		for k, want := range map[string]bool{"stdout": true, "nested": true, "plain": false} {
			if got[k].IsSecret() != want {
				t.Errorf("x=%s: output %s secret = %v, want %v", x, k, got[k].IsSecret(), want)
			}
		}
	}
}
