package deploy

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
	"slices"
	"sync"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// goalDigest hashes what goes into a custom resource's Check and Diff (a
// provider resource's CheckConfig and DiffConfig) before they are called:
// its program inputs (before Check and ignoreChanges), the options that
// affect them, and its provider inst (package, plugin and configuration;
// for a provider resource, the instance its registration prepared). ok is
// false when the registration may not take the fast path: it is off, the
// resource holds unknown values, or the provider's answer cannot be known
// in advance. A digest that covers a secret is keyed (see keyed).
func (d *deployment) goalDigest(ctx context.Context, g *goal, inst *instance) (sum []byte, ok bool) {
	n := g.new
	// The pulumi package's resources (stack references) answer from outside
	// their inputs: another stack's outputs.
	if d.opts.NoFastPath || !n.Custom || inst.pkg == "pulumi" || n.ImportID != "" ||
		!n.ReplacementTrigger.IsNull() || len(n.ReplaceWith) > 0 || n.DeletedWith != "" || d.targets.mustReplace(n.URN) {
		return nil, false
	}
	h := newDigestWriter()
	h.str("cairn goal digest v1")
	h.str(string(n.URN))
	h.str(n.Type)
	h.str(string(n.Parent))
	h.str(n.Provider)
	if resource.IsProviderType(n.Type) {
		plugin, ok := inst.pluginIdentity(ctx)
		if !ok {
			h.release()
			return nil, false
		}
		h.str(inst.pkg)
		h.str(plugin)
		h.str(inst.version)
	} else {
		id, secret, ok := inst.identity(ctx)
		if !ok {
			h.release()
			return nil, false
		}
		h.secret = secret
		h.bytes(id)
	}
	h.flag(n.Protect)
	h.flag(n.RetainOnDelete)
	h.flag(n.RefreshBeforeUpdate)
	if g.dbr == nil {
		h.str("dbr unset")
	} else {
		h.flag(*g.dbr)
	}
	h.strs(n.IgnoreChanges)
	h.strs(n.ReplaceOnChanges)
	h.strs(n.AdditionalSecretOutputs)
	h.strs(n.HideDiff)
	h.num(n.CustomTimeouts.Create)
	h.num(n.CustomTimeouts.Update)
	h.num(n.CustomTimeouts.Delete)
	if !h.values(n.Inputs) {
		h.release()
		return nil, false
	}
	return d.keyed(h.sum())
}

// trusts reports whether the fast path may skip the calls of inst's
// provider: the options trust its package (or the plugin serving it), or
// the provider declares that it answers from its requests alone, which the
// host tells without loading it or else the loaded provider says.
func (d *deployment) trusts(ctx context.Context, inst *instance) bool {
	o := d.opts
	if o.FastPathAll || slices.Contains(o.FastPathPackages, inst.pkg) || slices.Contains(o.FastPathPackages, inst.plugin) {
		return true
	}
	if inst.identified && inst.known.InputsOnly {
		return true
	}
	info, err := inst.pluginInfo(ctx)
	return err == nil && info.InputsOnly
}

// stateDigest is the digest recorded with a resource state: the goal's
// digest and the state the step ended with (ID, inputs after Check,
// outputs), so that a state changed since (by a refresh, an import or an
// edit) no longer matches. ok is false when the state holds unknowns.
func (d *deployment) stateDigest(goal []byte, s *resource.State) (string, bool) {
	if len(goal) == 0 || len(s.InitErrors) > 0 || s.ID == "" || s.ID == resource.UnknownID {
		return "", false
	}
	h := newDigestWriter()
	h.bytes(goal)
	h.str(string(s.ID))
	if !h.values(s.Inputs) || !h.values(s.Outputs) {
		h.release()
		return "", false
	}
	sum, ok := d.keyed(h.sum())
	if !ok {
		return "", false
	}
	return hex.EncodeToString(sum[:16]), true
}

// keyed returns a digest as it may be kept: as it is when it covers no
// secret; else an HMAC of it keyed by a key derived from the stack's seed
// key (which the state keeps encrypted), so that a stored digest cannot be
// checked against guesses of a secret without that key. ok is false when
// the key cannot be had.
func (d *deployment) keyed(sum []byte, secret bool) ([]byte, bool) {
	if !secret {
		return sum, true
	}
	d.digestKeyOnce.Do(func() {
		key, err := d.seedKey()
		if err != nil {
			return
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte("cairn digest key"))
		digestKey := mac.Sum(nil)
		d.digestMACs.New = func() any { return hmac.New(sha256.New, digestKey) }
	})
	if d.digestMACs.New == nil {
		return nil, false
	}
	mac := d.digestMACs.Get().(hash.Hash)
	defer d.digestMACs.Put(mac)
	mac.Reset()
	mac.Write(sum)
	return mac.Sum(nil), true
}

// fastSame returns the same step of a registration whose digest matches the
// one recorded at the resource's last successful step, when the resource
// has no pending operation and its state needs nothing else: the answers of
// Check and Diff are known, so neither is called.
func (d *deployment) fastSame(g *goal, old *resource.State, prov provider.Provider, goal []byte) *step {
	if goal == nil || old.Digest == "" || old.Taint || old.External || old.PendingReplacement ||
		old.Provider != g.new.Provider || d.pending[old.URN] {
		return nil
	}
	if sum, ok := d.stateDigest(goal, old); !ok || sum != old.Digest {
		return nil
	}
	n := g.new
	n.Inputs = old.Inputs
	return &step{op: OpSame, urn: n.URN, old: old, new: n, prov: prov, logical: true, digest: goal, matched: old.Digest}
}

// pluginIdentity names the implementation of the provider: as the host
// identifies it without loading it, else the version the loaded provider
// says. ok is false when it cannot be told: the provider does not load, or
// it says no version, which would make every version look the same.
func (inst *instance) pluginIdentity(ctx context.Context) (string, bool) {
	if inst.identified {
		return inst.known.Plugin, inst.known.Plugin != ""
	}
	info, err := inst.pluginInfo(ctx)
	return info.Version, err == nil && info.Version != ""
}

// identity returns what the fast path knows of a configured provider: its
// package, its implementation (pluginIdentity), the version asked for and
// its configuration, hashed, and whether the configuration holds a secret.
// ok is false when the configuration holds unknowns, or the implementation
// cannot be told.
func (inst *instance) identity(ctx context.Context) (id []byte, secret, ok bool) {
	inst.idOnce.Do(func() {
		inputs := inst.configInputs()
		plugin, ok := inst.pluginIdentity(ctx)
		if !ok || inputs == nil || inst.configuredUnknown() {
			return
		}
		h := newDigestWriter()
		h.str(inst.pkg)
		h.str(plugin)
		h.str(inst.version)
		if !h.values(inputs) {
			h.release()
			return
		}
		inst.id, inst.idSecret = h.sum()
	})
	return inst.id, inst.idSecret, inst.id != nil
}

// digestWriter writes values unambiguously into a buffer that is hashed
// once: each item is tagged and length-prefixed, object keys sorted.
// Writing a secret sets secret. Writers are pooled (newDigestWriter, sum).
type digestWriter struct {
	buf    []byte
	keys   []string // the keys of the objects being written, innermost last
	secret bool
}

var digestWriters = sync.Pool{New: func() any { return new(digestWriter) }}

func newDigestWriter() *digestWriter {
	h := digestWriters.Get().(*digestWriter)
	h.buf, h.secret = h.buf[:0], false
	return h
}

// sum returns the SHA-256 of what was written and whether it covers a
// secret, and gives the writer back to the pool.
func (h *digestWriter) sum() ([]byte, bool) {
	sum, secret := sha256.Sum256(h.buf), h.secret
	digestWriters.Put(h)
	return sum[:], secret
}

// release gives back a writer whose sum is not wanted.
func (h *digestWriter) release() { digestWriters.Put(h) }

func (h *digestWriter) tag(t byte, n int) {
	h.buf = binary.BigEndian.AppendUint64(append(h.buf, t), uint64(n))
}

func (h *digestWriter) bytes(b []byte) { h.buf = append(h.buf, b...) }

func (h *digestWriter) str(s string) {
	h.tag('s', len(s))
	h.buf = append(h.buf, s...)
}

func (h *digestWriter) strs(ss []string) {
	h.tag('l', len(ss))
	for _, s := range ss {
		h.str(s)
	}
}

func (h *digestWriter) flag(b bool) {
	if b {
		h.tag('t', 0)
	} else {
		h.tag('f', 0)
	}
}

func (h *digestWriter) num(f float64) { h.tag('n', int(math.Float64bits(f))) }

// values writes a map; false when it holds an unknown, or an asset or
// archive whose contents are not hashed.
func (h *digestWriter) values(m resource.Map) bool {
	base := len(h.keys)
	for k := range m {
		h.keys = append(h.keys, k)
	}
	slices.Sort(h.keys[base:])
	defer func() {
		clear(h.keys[base:])
		h.keys = h.keys[:base]
	}()
	h.tag('m', len(m))
	for i := range len(m) {
		k := h.keys[base+i] // h.keys grows with the objects inside
		h.str(k)
		if !h.value(m[k]) {
			return false
		}
	}
	return true
}

func (h *digestWriter) value(v resource.Value) bool {
	switch v.Kind() {
	case resource.NullKind:
		h.tag('0', 0)
	case resource.BoolKind:
		h.flag(v.BoolValue())
	case resource.NumberKind:
		h.num(v.NumberValue())
	case resource.StringKind:
		h.str(v.StringValue())
	case resource.ArrayKind:
		a := v.ArrayValue()
		h.tag('a', len(a))
		for _, e := range a {
			if !h.value(e) {
				return false
			}
		}
	case resource.ObjectKind:
		return h.values(v.ObjectValue())
	case resource.AssetKind:
		a := v.AssetValue()
		if a.Hash == "" {
			return false
		}
		h.strs([]string{"asset", a.Hash, a.Path, a.URI})
	case resource.ArchiveKind:
		a := v.ArchiveValue()
		if a.Hash == "" {
			return false
		}
		h.strs([]string{"archive", a.Hash, a.Path, a.URI})
	case resource.ResourceRefKind:
		r := v.RefValue()
		h.strs([]string{"ref", string(r.URN), r.PackageVersion})
		return h.value(r.ID)
	case resource.OutputKind:
		o := v.OutputValue()
		if !o.Known {
			return false
		}
		h.secret = h.secret || o.Secret
		h.flag(o.Secret)
		return h.value(o.Element)
	case resource.SecretKind:
		// A secret whose ciphertext is known (read from the state, or
		// sealed for it when the digest was recorded) is written as it:
		// the state shows it anyway, and equal ciphertexts under one key
		// hold equal plaintexts, so no key is needed to compare it, nor
		// does the digest let a guess of the plaintext be tested.
		if ciphertext, key, ok := v.Ciphertext(); ok {
			h.tag('C', 0)
			h.str(key)
			h.str(ciphertext)
			return true
		}
		h.secret = true
		h.tag('S', 0)
		return h.value(v.SecretElement())
	default: // unknown
		return false
	}
	return true
}
