package bucket

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// An object store cannot append, so an operation's journal is a folder of
// objects, diy.Journal(ref) + "/":
//
//	0000000000.jsonl   the header, written by Begin
//	0000000001.jsonl   the first segment of entries
//	…
//	compacted.jsonl    the hash of the state the journal was compacted into
//
// Read in name order and put end to end, they are the journal file of the
// file backend. The entries are written in batches (group commit), one at
// a time, each once the previous one is durable: a batch is appended to the
// current segment, which is written whole again (a PUT replaces an object
// atomically, so a reader sees the segment before the batch or after it),
// until the segment holds segmentSize bytes and the next batch starts a
// new one. So what a crash leaves is a prefix of the journal, in a few
// objects that Finish removes with a few requests. Finish writes the state
// once; until then the state object is the valid checkpoint the operation
// began from, which Pulumi reads.
const (
	headerObject    = "0000000000.jsonl"
	compactedObject = "compacted.jsonl"
)

// segmentSize is the size from which a journal's next batch starts a new
// segment: it bounds the bytes a batch rewrites (a PUT of 32 KiB takes
// half as long again as one of 4 KiB on VersityGW), and the segments are
// a journal's size divided by it (1,000 resources created: some 45).
const segmentSize = 16 << 10

// journalLinger is how long the journal's writer waits for more entries
// before it writes a batch. A PUT takes milliseconds; in the time, the
// steps the previous batch woke append their next entries (at the engine's
// default --parallel, some 4 a batch without waiting): waiting 1 ms halves
// the PUTs of a create of 1,000 resources.
const journalLinger = time.Millisecond

func journalDir(ref backend.StackRef) string { return diy.Journal(ref) + "/" }

func segmentObject(n uint64) string { return fmt.Sprintf("%010d.jsonl", n) }

// readJournal reads the stack's journal, or returns nil if there is none.
func (b *Backend) readJournal(ctx context.Context, ref backend.StackRef) (*backend.Journal, error) {
	keys, err := b.keys(ctx, journalDir(ref), "")
	if err != nil || len(keys) == 0 {
		return nil, err
	}
	where := b.url + " " + journalDir(ref)
	if path.Base(keys[0]) != headerObject {
		if path.Base(keys[len(keys)-1]) == compactedObject {
			// Removed but for its last object: its state was written.
			data, err := b.read(ctx, keys[len(keys)-1])
			if err != nil {
				return nil, err
			}
			var line backend.JournalLine
			if err := json.Unmarshal(data, &line); err != nil {
				return nil, fmt.Errorf("journal %s is corrupt: %w", where, err)
			}
			return &backend.Journal{Where: where, Compacted: line.Compacted}, nil
		}
		return nil, fmt.Errorf("journal %s has no header object %s; it is not a Cairn journal, or was removed in part", where, headerObject)
	}
	var all bytes.Buffer
	for _, k := range keys {
		data, err := b.read(ctx, k)
		if err != nil {
			return nil, err
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			return nil, fmt.Errorf("journal object %s in %s is truncated (it does not end a line)", k, b.url)
		}
		all.Write(data)
	}
	return backend.ParseJournal(where, all.Bytes())
}

// segments writes an operation's journal as segments.
type segments struct {
	b    *Backend
	ctx  context.Context
	dir  string
	n    uint64 // the current segment's number
	data []byte // its content
}

// write appends a batch to the current segment, or starts a new one, and
// writes the segment.
func (j *segments) write(batch []byte) error {
	if j.n == 0 || len(j.data) >= segmentSize {
		j.n, j.data = j.n+1, j.data[:0]
	}
	j.data = append(j.data, batch...)
	if err := j.b.write(j.ctx, j.dir+segmentObject(j.n), j.data, false); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

// keys are the journal's objects: the header and every segment. The
// journal's writer must be closed.
func (j *segments) keys() []string {
	keys := []string{j.dir + headerObject}
	for n := range j.n {
		keys = append(keys, j.dir+segmentObject(n+1))
	}
	return keys
}

// createJournal writes the journal's header and returns the group writer
// that writes its segments.
func (b *Backend) createJournal(ctx context.Context, ref backend.StackRef, h backend.JournalHeader) (*backend.GroupWriter, *segments, error) {
	line, err := json.Marshal(backend.JournalLine{Header: &h})
	if err != nil {
		return nil, nil, err
	}
	j := &segments{b: b, ctx: context.WithoutCancel(ctx), dir: journalDir(ref)}
	if err := b.write(ctx, j.dir+headerObject, append(line, '\n'), false); err != nil {
		return nil, nil, fmt.Errorf("creating the journal: %w", err)
	}
	return backend.NewLingeringWriter(journalLinger, j.write, nil), j, nil
}

// markCompacted records in the stack's journal that the state with the
// given hash holds everything it recorded; a crash between writing that
// state and removing the journal then leaves a journal known to be done.
func (b *Backend) markCompacted(ctx context.Context, ref backend.StackRef, hash string) error {
	line, err := json.Marshal(backend.JournalLine{Compacted: hash})
	if err != nil {
		return err
	}
	return b.write(ctx, journalDir(ref)+compactedObject, append(line, '\n'), false)
}

// removeJournal removes the stack's journal: its header and segments, then
// the mark that it was compacted, so that what a crash leaves is still
// known to be done. keys are its objects when the caller knows them; nil
// lists them.
func (b *Backend) removeJournal(ctx context.Context, ref backend.StackRef, keys []string) error {
	if keys == nil {
		var err error
		if keys, err = b.keys(ctx, journalDir(ref), ""); err != nil {
			return err
		}
	}
	var objects []string
	mark := false
	for _, k := range keys {
		switch {
		case path.Base(k) == compactedObject:
			mark = true
		case strings.HasSuffix(k, ".jsonl"):
			objects = append(objects, k)
		}
	}
	err := b.removeAll(ctx, objects)
	if err == nil && mark {
		err = b.remove(ctx, journalDir(ref)+compactedObject)
	}
	if err != nil {
		return fmt.Errorf("removing the journal of stack %s: %w", ref, err)
	}
	return nil
}
