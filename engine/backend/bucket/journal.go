package bucket

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// An object store cannot append, so an operation's journal is a folder of
// objects, diy.Journal(ref) + "/":
//
//	0000000000.jsonl   the header, written by Begin
//	0000000001.jsonl   the first batch of entries (one PUT each: group commit)
//	…
//	compacted.jsonl    the hash of the state the journal was compacted into
//
// Read in name order and put end to end, they are the journal file of the
// file backend. Batches are written one at a time, each once the previous
// one is durable, so a crash leaves no gap. Finish writes the state once;
// until then the state object is the valid checkpoint the operation began
// from, which Pulumi reads.
const (
	headerObject    = "0000000000.jsonl"
	compactedObject = "compacted.jsonl"
)

func journalDir(ref backend.StackRef) string { return diy.Journal(ref) + "/" }

func batchObject(n int) string { return fmt.Sprintf("%010d.jsonl", n) }

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

// createJournal writes the journal's header and returns the group writer
// that writes its batches, one object each.
func (b *Backend) createJournal(ctx context.Context, ref backend.StackRef, h backend.JournalHeader) (*backend.GroupWriter, error) {
	line, err := json.Marshal(backend.JournalLine{Header: &h})
	if err != nil {
		return nil, err
	}
	dir := journalDir(ref)
	if err := b.write(ctx, dir+headerObject, append(line, '\n'), false); err != nil {
		return nil, fmt.Errorf("creating the journal: %w", err)
	}
	n := 0
	return backend.NewGroupWriter(func(batch []byte) error {
		n++
		// The batch is the writer's buffer, reused once write returns, and
		// WriteAll is done with it by then.
		if err := b.write(context.WithoutCancel(ctx), dir+batchObject(n), batch, false); err != nil {
			return fmt.Errorf("writing the journal: %w", err)
		}
		return nil
	}, nil), nil
}

// markCompacted records in the stack's journal, if it has one, that the
// state with the given hash holds everything it recorded; a crash between
// writing that state and removing the journal then leaves a journal known
// to be done.
func (b *Backend) markCompacted(ctx context.Context, ref backend.StackRef, hash string) error {
	keys, err := b.keys(ctx, journalDir(ref), "")
	if err != nil || len(keys) == 0 {
		return err
	}
	line, err := json.Marshal(backend.JournalLine{Compacted: hash})
	if err != nil {
		return err
	}
	return b.write(ctx, journalDir(ref)+compactedObject, append(line, '\n'), false)
}

// removeJournal removes the stack's journal: its batches, then its header,
// then the mark that it was compacted, so that what a crash leaves is
// still known to be done.
func (b *Backend) removeJournal(ctx context.Context, ref backend.StackRef) error {
	keys, err := b.keys(ctx, journalDir(ref), "")
	if err != nil {
		return err
	}
	var batches, last []string
	for _, k := range keys {
		switch path.Base(k) {
		case headerObject, compactedObject:
			last = append(last, k)
		default:
			if strings.HasSuffix(k, ".jsonl") {
				batches = append(batches, k)
			}
		}
	}
	if err := b.removeAll(ctx, batches); err != nil {
		return fmt.Errorf("removing the journal of stack %s: %w", ref, err)
	}
	for _, k := range last {
		if err := b.remove(ctx, k); err != nil {
			return fmt.Errorf("removing the journal of stack %s: %w", ref, err)
		}
	}
	return nil
}
