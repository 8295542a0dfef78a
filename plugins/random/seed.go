package random

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash/crc64"
	mathrand "math/rand"
	randv2 "math/rand/v2"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/internal/props"
)

// seedKey is the checked input under which Check keeps the engine's random
// seed for Create. Keys that begin with "__" are the provider's own: they
// are never outputs and never part of a diff.
const seedKey = "__seed"

// seedInput returns the value Check records under seedKey: the old one when
// the resource exists (its values are already chosen), otherwise the seed of
// this check, or fresh random bytes when the engine gave none. It is secret
// when res has secret outputs or an input (keepers included) holds a secret,
// since it and the inputs determine every generated value: in plain text
// next to those values, it would let anyone who reads the state check
// guesses of a secret input against them. The seed of a resource with
// nothing secret reveals nothing, and a state with no secret is read without
// deriving the passphrase's key.
func seedInput(res *schema.Resource, req provider.CheckRequest) (resource.Value, bool, error) {
	v, ok := req.Olds[seedKey]
	if req.Olds == nil {
		seed, err := req.RandomSeed()
		if err != nil {
			return resource.Value{}, false, err
		}
		if len(seed) == 0 {
			seed = make([]byte, 32)
			_, _ = rand.Read(seed)
		}
		v, ok = resource.String(hex.EncodeToString(seed)), true
	}
	if ok && (props.Visible(req.News).ContainsSecrets() || hasSecretOutputs(res)) {
		v = resource.MakeSecret(v)
	}
	return v, ok, nil
}

func hasSecretOutputs(res *schema.Resource) bool {
	for _, p := range res.Properties {
		if p.Secret {
			return true
		}
	}
	return false
}

// source is the deterministic stream a resource's values are drawn from.
type source struct {
	*randv2.Rand
	stream *randv2.ChaCha8 // the same stream, read as bytes
}

// newSource returns the stream for checked inputs: a ChaCha8 generator keyed
// by the recorded seed and the inputs themselves, so that a preview and the
// update after it (which check with the same seed) draw the same values,
// while a replacement (checked with another seed) or changed inputs draw
// others. Without a recorded seed the stream is keyed by fresh random bytes.
func newSource(inputs resource.Map) *source {
	seed, _ := props.String(inputs, seedKey)
	if seed == "" {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		seed = hex.EncodeToString(b)
	}
	canonical, _ := json.Marshal(props.Visible(inputs).ToGo())
	h := sha256.New()
	h.Write([]byte("cairn random\x00"))
	h.Write([]byte(seed))
	h.Write([]byte{0})
	h.Write(canonical)
	var key [32]byte
	copy(key[:], h.Sum(nil))
	stream := randv2.NewChaCha8(key)
	return &source{Rand: randv2.New(stream), stream: stream}
}

// opaqueID draws an ID that says nothing of a resource's value, for the types
// whose pulumi-random ID is a constant or the secret itself (a constant ID
// would give every replacement the same engine seed), and for a value drawn
// from a secret input.
func (s *source) opaqueID() resource.ID {
	b := make([]byte, 8)
	_, _ = s.stream.Read(b)
	return resource.ID(hex.EncodeToString(b))
}

// userSeeded returns the generator Pulumi uses for a user-given seed
// (math/rand seeded with the string's CRC-64/ISO), so that a seeded
// RandomInteger or RandomShuffle has the same result under Cairn as under
// pulumi-random.
func userSeeded(seed string) *mathrand.Rand {
	return mathrand.New(mathrand.NewSource(int64(crc64.Checksum([]byte(seed), crc64.MakeTable(crc64.ISO)))))
}
