package state

import "github.com/cairn-iac/cairn/engine/snapshot"

// StoredCheckpoint is the stored form of a checkpoint, for tests to
// marshal it whole.
type StoredCheckpoint = storedCheckpoint

// ReadInOnePass is Decoder.Checkpoint without its fall back to
// ParseCheckpoint and Deployment, for tests to see which reader read.
func (d *Decoder) ReadInOnePass(data []byte) (*snapshot.Snapshot, error) { return d.read(data) }
