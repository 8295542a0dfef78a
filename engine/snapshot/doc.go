// Package snapshot holds the model of a stack's recorded state, as the
// deployment engine produces it and backends persist it: the Snapshot (the
// resources in dependency order, the operations that began but were not seen
// to end, the random seed key), the JournalEntry a deployment records for
// every step, and the Builder that applies entries to a base snapshot, which
// is how the engine keeps its current state and how a backend replays the
// journal of a process that died.
//
// The package has no knowledge of deployments, formats or storage:
// engine/deploy writes snapshots and journal entries, engine/state encodes
// them in Pulumi's checkpoint format, and the backends store them. Edits made
// outside a deployment (Forget, Unprotect) return a copy that keeps every
// other field.
//
//	b := snapshot.NewBuilder(base, snapshot.KeepPendingCreates)
//	for _, e := range entries { // in Sequence order
//		b.Apply(e)
//	}
//	recovered := b.Snapshot()
//	if err := recovered.VerifyIntegrity(); err != nil {
//		return err
//	}
package snapshot
