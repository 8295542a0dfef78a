package deploy

import (
	"sync"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// journal numbers entries, keeps the current snapshot and hands entries to
// the persistent journal.
type journal struct {
	mu      sync.Mutex
	seq     int64
	opSeq   int64
	builder *snapshot.Builder
	persist snapshot.Journal
}

func newJournal(base *snapshot.Snapshot, persist snapshot.Journal, keep func(resource.Operation) bool) *journal {
	return &journal{builder: snapshot.NewBuilder(base, keep), persist: persist}
}

// newOperationID returns a fresh operation ID.
func (j *journal) newOperationID() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.opSeq++
	return j.opSeq
}

// append records e and makes it durable.
func (j *journal) append(e snapshot.JournalEntry) error {
	j.mu.Lock()
	j.seq++
	e.Sequence = j.seq
	j.builder.Apply(e)
	j.mu.Unlock()
	if j.persist == nil {
		return nil
	}
	return j.persist.Append(e)
}

func (j *journal) snapshot() *snapshot.Snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.builder.Snapshot()
}

func intp(i int) *int       { return &i }
func int64p(i int64) *int64 { return &i }
