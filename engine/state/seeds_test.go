package state_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// seedsRoundTrip writes a snapshot holding seeds with enc, through JSON,
// and reads it back with dec.
func seedsRoundTrip(t *testing.T, enc *state.Encoder, dec *state.Decoder, seeds snapshot.Seeds) (snapshot.Seeds, string) {
	t.Helper()
	d, _, _, err := enc.Deployment(&snapshot.Snapshot{Seeds: seeds})
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

// key opens the seed key of seeds read back with dec.
func key(t *testing.T, dec *state.Decoder, s snapshot.Seeds) []byte {
	t.Helper()
	if s.Sealed == nil {
		return s.Key
	}
	k, err := dec.SeedKey(s.Sealed)
	if err != nil {
		t.Fatalf("opening the seed key: %v", err)
	}
	return k
}

func TestSeedsRoundTrip(t *testing.T) {
	seeds := snapshot.Seeds{Key: bytes.Repeat([]byte{0xab}, 32), Generation: 7}

	b64 := state.NewDecoder(b64Manager{})
	got, data := seedsRoundTrip(t, testEncoder(false), b64, seeds)
	if got.Generation != 7 || got.Key != nil || !bytes.Equal(key(t, b64, got), seeds.Key) {
		t.Errorf("seeds = %+v with key %x, want %+v, sealed", got, key(t, b64, got), seeds)
	}
	if strings.Contains(data, hex.EncodeToString(seeds.Key)) {
		t.Errorf("the seed key is stored in plain text: %s", data)
	}

	// Without a secrets manager the key is not stored; the generation is.
	none := state.NewDecoder(nil)
	got, _ = seedsRoundTrip(t, state.NewEncoder(state.EncodeOptions{}), none, seeds)
	if got.Generation != 7 || key(t, none, got) != nil {
		t.Errorf("seeds without a secrets manager = %+v, want generation 7 and no key", got)
	}
	// A key that cannot be decrypted here is dropped, not an error.
	got, _ = seedsRoundTrip(t, testEncoder(false), none, seeds)
	if got.Generation != 7 || key(t, none, got) != nil {
		t.Errorf("seeds read without a secrets manager = %+v, want generation 7 and no key", got)
	}

	// The key is decrypted when first asked for, not when the state is read,
	// and written back as it was stored while it is not opened.
	locked := state.NewDecoder(lockedOut{})
	got, stored := seedsRoundTrip(t, testEncoder(false), locked, seeds)
	again, rewritten := seedsRoundTrip(t, testEncoder(false), b64, got)
	if rewritten != stored || !bytes.Equal(key(t, b64, again), seeds.Key) {
		t.Errorf("an unopened key written back:\n%s\nwant as stored:\n%s", rewritten, stored)
	}
	if _, err := locked.SeedKey(got.Sealed); got.Generation != 7 || err == nil || !strings.Contains(err.Error(), "locked out") {
		t.Errorf("seeds read with a manager that cannot decrypt = %+v, %v; want generation 7 and its error on opening the key", got, err)
	}

	je, err := testEncoder(false).JournalEntry(snapshot.JournalEntry{Kind: snapshot.EntrySeeds, Sequence: 1, OperationID: 1, Seeds: &seeds})
	if err != nil {
		t.Fatal(err)
	}
	back, err := b64.JournalEntry(je, &state.SecretsProvidersV1{Type: "b64"})
	if err != nil || back.Kind != snapshot.EntrySeeds || back.Seeds == nil || !bytes.Equal(key(t, b64, *back.Seeds), seeds.Key) || back.Seeds.Generation != 7 {
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
