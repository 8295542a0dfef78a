package state

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// SeedsV1 is the stored form of deploy.Seeds, Cairn's own (the anchor
// ignores it): the key as a secret value, so it is encrypted like any other,
// and the generation.
type SeedsV1 struct {
	Key        any   `json:"key,omitempty"`
	Generation int64 `json:"generation"`
}

// encodeSeeds writes the seed state; nil when there is none. Without a
// secrets manager the key is left out: the stack cannot hold secrets (nor
// the random seeds providers keep as secrets), and the engine makes a new
// key when it next needs one.
func encodeSeeds(s deploy.Seeds, values *valueEncoder, sm secrets.Manager) (*SeedsV1, error) {
	if sk := s.Sealed; len(s.Key) == 0 && sk != nil && sm != nil && !values.showSecrets &&
		sk.Provider == sm.Type() && sk.ProviderState == compact(sm.State()) {
		return &SeedsV1{Generation: s.Generation, Key: sk.Value}, nil
	}
	raw, err := s.Bytes()
	if err != nil {
		return nil, fmt.Errorf("the stack's seed key: %w", err)
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

// decodeSeeds reads the seed state, sealed by sp. The key is decrypted when
// first asked for (Seeds.Open); one that cannot be for want of a secrets
// manager is none, as when it was written without one.
func decodeSeeds(sv *SeedsV1, values *valueDecoder, sp *SecretsProvidersV1) (deploy.Seeds, error) {
	if sv == nil {
		return deploy.Seeds{}, nil
	}
	out := deploy.Seeds{Generation: sv.Generation}
	if sv.Key == nil {
		return out, nil
	}
	if sp != nil {
		out.Sealed = &deploy.SealedKey{Value: sv.Key, Provider: sp.Type, ProviderState: compact(sp.State)}
	}
	out.Open = sync.OnceValues(func() ([]byte, error) {
		v, err := values.decodeValue(sv.Key)
		if errors.Is(err, errNoSecretsManager) {
			return nil, nil
		}
		if err == nil && !v.Unsecret().IsString() {
			err = errors.New("it is not a string")
		}
		var key []byte
		if err == nil {
			key, err = hex.DecodeString(v.Unsecret().StringValue())
		}
		return key, err
	})
	return out, nil
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
