package state

// StoredCheckpoint is the stored form of a checkpoint, for tests to
// marshal it whole.
type StoredCheckpoint = storedCheckpoint
