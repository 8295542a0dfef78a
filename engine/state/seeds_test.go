package state_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/state"
)

// seedsRoundTrip writes a snapshot holding seeds with enc, through JSON,
// and reads it back with dec.
func seedsRoundTrip(t *testing.T, enc *state.Encoder, dec *state.Decoder, seeds deploy.Seeds) (deploy.Seeds, string) {
	t.Helper()
	d, _, _, err := enc.Deployment(&deploy.Snapshot{Seeds: seeds})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back state.DeploymentV3
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	snap, err := dec.Deployment(&back)
	if err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return snap.Seeds, string(data)
}

// key opens the seed key of seeds read back.
func key(t *testing.T, s deploy.Seeds) []byte {
	t.Helper()
	k, err := s.Bytes()
	if err != nil {
		t.Fatalf("opening the seed key: %v", err)
	}
	return k
}

func TestSeedsRoundTrip(t *testing.T) {
	seeds := deploy.Seeds{Key: bytes.Repeat([]byte{0xab}, 32), Generation: 7}

	got, data := seedsRoundTrip(t, testEncoder(false), state.NewDecoder(b64Manager{}), seeds)
	if got.Generation != 7 || !bytes.Equal(key(t, got), seeds.Key) {
		t.Errorf("seeds = %+v with key %x, want %+v", got, key(t, got), seeds)
	}
	if strings.Contains(data, hex.EncodeToString(seeds.Key)) {
		t.Errorf("the seed key is stored in plain text: %s", data)
	}

	// Without a secrets manager the key is not stored; the generation is.
	got, _ = seedsRoundTrip(t, state.NewEncoder(state.EncodeOptions{}), state.NewDecoder(nil), seeds)
	if got.Generation != 7 || key(t, got) != nil {
		t.Errorf("seeds without a secrets manager = %+v, want generation 7 and no key", got)
	}
	// A key that cannot be decrypted here is dropped, not an error.
	got, _ = seedsRoundTrip(t, testEncoder(false), state.NewDecoder(nil), seeds)
	if got.Generation != 7 || key(t, got) != nil {
		t.Errorf("seeds read without a secrets manager = %+v, want generation 7 and no key", got)
	}

	// The key is decrypted when first asked for, not when the state is read,
	// and written back as it was stored while it is not opened.
	got, stored := seedsRoundTrip(t, testEncoder(false), state.NewDecoder(lockedOut{}), seeds)
	again, rewritten := seedsRoundTrip(t, testEncoder(false), state.NewDecoder(b64Manager{}), got)
	if rewritten != stored || !bytes.Equal(key(t, again), seeds.Key) {
		t.Errorf("an unopened key written back:\n%s\nwant as stored:\n%s", rewritten, stored)
	}
	if _, err := got.Bytes(); got.Generation != 7 || err == nil || !strings.Contains(err.Error(), "locked out") {
		t.Errorf("seeds read with a manager that cannot decrypt = %+v, %v; want generation 7 and its error on opening the key", got, err)
	}

	je, err := testEncoder(false).JournalEntry(deploy.JournalEntry{Kind: deploy.EntrySeeds, Sequence: 1, OperationID: 1, Seeds: &seeds})
	if err != nil {
		t.Fatal(err)
	}
	back, err := state.NewDecoder(b64Manager{}).JournalEntry(je, &state.SecretsProvidersV1{Type: "b64"})
	if err != nil || back.Kind != deploy.EntrySeeds || back.Seeds == nil || !bytes.Equal(key(t, *back.Seeds), seeds.Key) || back.Seeds.Generation != 7 {
		t.Errorf("seeds entry decoded as %+v (%v)", back, err)
	}
	if je.Kind != "seeds" {
		t.Errorf("seeds entry kind = %q", je.Kind)
	}
}

// lockedOut is a b64 manager that cannot decrypt.
type lockedOut struct{ b64Manager }

func (lockedOut) Decrypt(string) (string, error) { return "", errors.New("locked out") }

func (m lockedOut) DecrypterFor(string, json.RawMessage) (secrets.Decrypter, error) { return m, nil }
