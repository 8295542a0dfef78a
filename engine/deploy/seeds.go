package deploy

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// seedFor derives the random seed passed to Check for a resource: an HMAC,
// keyed by the stack's secret, of this deployment's generation and the URN.
// It is the same for a URN throughout a deployment (and in the preview
// before it), cannot be guessed without the key, and differs from the seed
// of any earlier deployment, so a replacement or a re-creation draws fresh
// values.
func (d *deployment) seedFor(urn resource.URN) ([]byte, error) {
	s, err := d.seeds()
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, s.Key)
	mac.Write(binary.BigEndian.AppendUint64([]byte("cairn seed\x00"), uint64(s.Generation)))
	mac.Write([]byte(urn))
	return mac.Sum(nil), nil
}

// seeds returns this deployment's seed state, making it on first use: the
// base's key (or Options.SeedKey, or a new one) at the next generation,
// journaled before any seed derived from it is used.
func (d *deployment) seeds() (snapshot.Seeds, error) {
	d.seedMu.Lock()
	defer d.seedMu.Unlock()
	if d.seedState.Generation > 0 {
		return d.seedState, nil
	}
	key, err := d.baseSeedKey()
	if err != nil {
		return snapshot.Seeds{}, err
	}
	s := snapshot.Seeds{Key: key, Generation: d.base.Seeds.Generation + 1}
	if len(s.Key) == 0 {
		s.Key = d.opts.SeedKey
	}
	if len(s.Key) == 0 {
		fresh, err := snapshot.NewSeeds()
		if err != nil {
			return snapshot.Seeds{}, err
		}
		s.Key = fresh.Key
	}
	if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntrySeeds, OperationID: d.journal.newOperationID(), Seeds: &s}); err != nil {
		return snapshot.Seeds{}, err
	}
	d.seedState = s
	return s, nil
}

// baseSeedKey returns the base snapshot's seed key, decrypted; nil when it
// has none.
func (d *deployment) baseSeedKey() ([]byte, error) {
	key, sealed := d.base.Seeds.Key, d.base.Seeds.Sealed
	if key != nil || sealed == nil {
		return key, nil
	}
	if d.opts.OpenSeedKey == nil {
		return nil, errors.New("the stack's seed key is encrypted and the deployment cannot decrypt it")
	}
	key, err := d.opts.OpenSeedKey(sealed)
	if err != nil {
		return nil, fmt.Errorf("the stack's seed key: %w", err)
	}
	return key, nil
}

// seedKey returns the stack's seed key without starting a new generation
// when the base snapshot has one: the key stays the same across
// deployments.
func (d *deployment) seedKey() ([]byte, error) {
	if key, err := d.baseSeedKey(); err != nil || key != nil {
		return key, err
	}
	s, err := d.seeds()
	return s.Key, err
}
