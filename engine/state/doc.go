// Package state reads and writes engine state in Pulumi's checkpoint
// format: the stored VersionedCheckpoint (deployment version 3, or 4 with a
// features list when a resource needs one), the UntypedDeployment that
// `stack export` prints and `stack import` reads, and the journal entries a
// backend appends while an operation runs.
//
// Field names and value encodings are Pulumi's, so a state exported by
// `pulumi stack export` imports into Cairn and the reverse: secrets are
// {sig, ciphertext} around the encrypted JSON text of their element (secrets
// nested in it are marked but not encrypted again), or {sig, plaintext} when
// secrets are shown; assets, archives and resource references carry their
// signatures; unknowns are the unknown sentinel; outputs are stored as what
// they resolve to; NaN, ±Inf and strings that are not UTF-8 use Pulumi's
// float and byte-string signatures. Readers refuse deployment versions and
// features they do not know, with an error that names them.
//
// A secret read from a state keeps its ciphertext (resource.Value.Ciphertext),
// and an encoder under the same key writes it again as that ciphertext, so an
// unchanged secret is not encrypted again and a digest of its ciphertext
// (the fast path's) still matches. A decoder given a *secrets.Lazy decrypts
// each secret when it is first read instead of when the state is.
//
//	enc := state.NewEncoder(state.EncodeOptions{Secrets: sm})
//	data, err := enc.Checkpoint("organization/proj/dev", snap) // the stored file
//	c, err := enc.EncodeCheckpoint("organization/proj/dev", snap)
//	_, err = c.WriteTo(f) // the same, one resource's JSON at a time
//
//	chk, err := state.ParseCheckpoint(data)
//	snap, err = state.NewDecoder(sm).Deployment(chk.Latest)
//
//	// After a crash: the journal's entries over the snapshot they began from.
//	recovered := state.Replay(snap, entries)
package state
