package state

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// SeedsV1 is the stored form of snapshot.Seeds, Cairn's own (Pulumi
// ignores it): the key as a secret value, so it is encrypted like any other,
// and the generation.
type SeedsV1 struct {
	Key        any   `json:"key,omitempty"`
	Generation int64 `json:"generation"`
}

// encodeSeeds writes the seed state; nil when there is none. A key still
// sealed by sm's secrets provider is written back as it was. Without a
// secrets manager the key is left out: the stack cannot hold secrets (nor
// the random seeds providers keep as secrets), and the engine makes a new
// key when it next needs one.
func encodeSeeds(s snapshot.Seeds, values *valueEncoder, sm secrets.Manager) (*SeedsV1, error) {
	if sk := s.Sealed; len(s.Key) == 0 && sk != nil && sm != nil && !values.showSecrets &&
		sk.Provider == sm.Type() && sk.ProviderState == compact(sm.State()) {
		return &SeedsV1{Generation: s.Generation, Key: sk.Value}, nil
	}
	raw := s.Key
	if len(raw) == 0 && s.Sealed != nil {
		var err error
		if raw, err = NewDecoder(sm).SeedKey(s.Sealed); err != nil {
			return nil, fmt.Errorf("the stack's seed key: %w", err)
		}
	}
	if s.Generation == 0 && len(raw) == 0 {
		return nil, nil
	}
	out := &SeedsV1{Generation: s.Generation}
	if len(raw) == 0 || (values.encrypt == nil && !values.showSecrets) {
		return out, nil
	}
	key, err := values.encodeValue(resource.MakeSecret(resource.String(hex.EncodeToString(raw))))
	if err != nil {
		return nil, fmt.Errorf("the stack's seed key: %w", err)
	}
	out.Key = key
	return out, nil
}

// decodeSeeds reads the seed state, sealed by sp, leaving the key sealed:
// SeedKey decrypts it when it is needed.
func decodeSeeds(sv *SeedsV1, sp *SecretsProvidersV1) snapshot.Seeds {
	if sv == nil {
		return snapshot.Seeds{}
	}
	out := snapshot.Seeds{Generation: sv.Generation}
	if sv.Key != nil {
		out.Sealed = &snapshot.SealedKey{Value: sv.Key}
		if sp != nil {
			out.Sealed.Provider, out.Sealed.ProviderState = sp.Type, compact(sp.State)
		}
	}
	return out
}

// SeedKey decrypts a sealed seed key (deploy.Options.OpenSeedKey). A key
// that cannot be decrypted for want of a secrets manager is none, as when
// it was written without one.
func (d *Decoder) SeedKey(k *snapshot.SealedKey) ([]byte, error) {
	var sp *SecretsProvidersV1
	if k.Provider != "" {
		sp = &SecretsProvidersV1{Type: k.Provider, State: json.RawMessage(k.ProviderState)}
	}
	v, err := d.values(sp).decodeValue(k.Value)
	if errors.Is(err, errNoSecretsManager) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !v.Unsecret().IsString() {
		return nil, errors.New("it is not a string")
	}
	return hex.DecodeString(v.Unsecret().StringValue())
}

// compact returns a secrets provider's state without insignificant space,
// as it is compared: a state file holds it indented.
func compact(state json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, state) != nil {
		return string(state)
	}
	return b.String()
}
