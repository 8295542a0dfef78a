package local

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
)

// historySuffix ends the name of every history record file.
const historySuffix = ".history.json"

// History implements backend.Backend.
func (b *Backend) History(ctx context.Context, ref backend.StackRef) ([]backend.HistoryRecord, error) {
	if err := b.knownStack(ref); err != nil {
		return nil, err
	}
	files, err := b.historyFiles(ref)
	if err != nil {
		return nil, err
	}
	first := firstVersion(files)
	out := make([]backend.HistoryRecord, 0, len(files))
	for i := len(files) - 1; i >= 0; i-- {
		data, err := readState(files[i])
		if err != nil {
			return nil, err
		}
		var rec backend.HistoryRecord
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("reading the history record %s: %w", files[i], err)
		}
		if rec.Version == 0 { // Pulumi's DIY backend does not number its records
			rec.Version = first + i
		}
		out = append(out, rec)
	}
	return out, nil
}

// historyFiles lists the stack's history records, oldest first (their names
// hold the time they were written, in nanoseconds).
func (b *Backend) historyFiles(ref backend.StackRef) ([]string, error) {
	return globStates(filepath.Join(b.layout.history(ref), ref.Name+"-*"+historySuffix))
}

// historyTime is the time, in nanoseconds, in the name of a history record
// file of the stack.
func historyTime(ref backend.StackRef, path string) int64 {
	name := strings.TrimSuffix(filepath.Base(path), stateExt(path))
	ns, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(name, ref.Name+"-"), ".history"), 10, 64)
	return ns
}

// firstVersion is the version of the oldest of the stack's history records
// (files, oldest first), which numbers the others in order: 1, unless
// older ones were pruned.
func firstVersion(files []string) int {
	if len(files) == 0 {
		return 1
	}
	var rec backend.HistoryRecord
	if data, err := readState(files[0]); err != nil || json.Unmarshal(data, &rec) != nil || rec.Version < 1 {
		return 1
	}
	return rec.Version
}

// record appends a record to the stack's history, numbering it, under the
// time ns.
func (b *Backend) record(ref backend.StackRef, rec backend.HistoryRecord, ns int64) error {
	files, err := b.historyFiles(ref)
	if err != nil {
		return err
	}
	rec.Version = firstVersion(files) + len(files)
	return b.writeRecord(ref, rec, ns)
}

// writeRecord writes a history record, numbered, under the time ns.
func (b *Backend) writeRecord(ref backend.StackRef, rec backend.HistoryRecord, ns int64) error {
	data, err := json.MarshalIndent(rec, "", "    ")
	if err != nil {
		return err
	}
	name := ref.Name + "-" + strconv.FormatInt(ns, 10) + historySuffix
	if err := writeFileAtomic(filepath.Join(b.layout.history(ref), name), data); err != nil {
		return fmt.Errorf("recording the operation in the history of stack %s: %w", ref, err)
	}
	return nil
}
