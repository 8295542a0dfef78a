package local

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// journalVersion is the version of the journal file format.
const journalVersion = 1

// A journal file holds one JSON object per line: a header, then the
// operation's entries in the order they became durable (not necessarily
// sequence order), and, once the operation's state has been written, a
// compacted line with the hash of that state.
type journalLine struct {
	Header    *journalHeader        `json:"header,omitempty"`
	Entry     *state.JournalEntryV1 `json:"entry,omitempty"`
	Compacted string                `json:"compacted,omitempty"`
}

// journalHeader says which operation wrote a journal, from which state.
type journalHeader struct {
	Version int                   `json:"version"`
	Kind    backend.OperationKind `json:"kind"`
	Message string                `json:"message,omitempty"`
	Started time.Time             `json:"started"`
	// Base is the hex SHA-256 of the state file the operation began from;
	// the entries name its resources by index.
	Base string `json:"base"`
	// SecretsProviders encrypted the entries' secrets.
	SecretsProviders *state.SecretsProvidersV1 `json:"secrets_providers,omitempty"`
}

// journalFile is a journal as read back.
type journalFile struct {
	path      string
	header    journalHeader
	entries   []state.JournalEntryV1
	compacted string // the hash of the state the journal was compacted into, if it was
}

// readJournal reads the journal at path, or returns nil if there is none.
// A last line without its newline is a write the crash cut short; no
// Append returned for it, so it is left out.
func readJournal(path string) (*journalFile, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	j := &journalFile{path: path}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
	}
	for n, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var l journalLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("journal %s is corrupt at line %d: %w", path, n+1, err)
		}
		switch {
		case n == 0 && l.Header == nil:
			return nil, fmt.Errorf("journal %s does not start with a header; it is not a Cairn journal", path)
		case l.Header != nil:
			j.header = *l.Header
		case l.Entry != nil:
			j.entries = append(j.entries, *l.Entry)
		case l.Compacted != "":
			j.compacted = l.Compacted
		}
	}
	if j.header.Version != journalVersion {
		return nil, fmt.Errorf("journal %s has version %d; this Cairn reads version %d", path, j.header.Version, journalVersion)
	}
	return j, nil
}

// replay applies the journal's entries to the state it began from.
func (j *journalFile) replay(base *snapshot.Snapshot, sm secrets.Manager) (*snapshot.Snapshot, error) {
	dec := state.NewDecoder(sm)
	entries := make([]snapshot.JournalEntry, 0, len(j.entries))
	for i := range j.entries {
		e, err := dec.JournalEntry(&j.entries[i], j.header.SecretsProviders)
		if err != nil {
			return nil, fmt.Errorf("replaying journal %s: %w", j.path, err)
		}
		entries = append(entries, e)
	}
	return state.Replay(base, entries), nil
}

// createJournal writes a journal holding only its header (complete or not
// at all: through a temporary file) and opens it for appending. The journal
// is also returned flocked, from before it appears: close that file once
// the operation has finished, so that no other process recovers the
// journal while its operation runs.
func createJournal(path string, h journalHeader) (*groupWriter, *os.File, error) {
	line, err := json.Marshal(journalLine{Header: &h})
	if err != nil {
		return nil, nil, err
	}
	held, err := replaceFile(path, append(line, '\n'), true)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, fileMode)
	if err != nil {
		held.Close()
		return nil, nil, err
	}
	return newGroupWriter(f), held, nil
}

// markCompacted appends to the journal at path, if there is one, that the
// state with the given hash holds everything it recorded; a crash between
// writing that state and removing the journal then leaves a journal that
// is known to be done.
func markCompacted(path, hash string) error {
	line, err := json.Marshal(journalLine{Compacted: hash})
	if err != nil {
		return err
	}
	err = writeSynced(path, append(line, '\n'), os.O_WRONLY|os.O_APPEND)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// removeJournal removes the journal at path, if there is one (a stack
// that never ran an operation has none, nor a journals directory).
func removeJournal(path string) error {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// journal is an operation's snapshot.Journal: each entry is encoded like a
// checkpoint resource, secrets encrypted, and appended as one line with
// group commit, so the bytes a step writes depend on the resource it
// touches, not on the size of the stack.
type journal struct {
	enc  *state.Encoder
	w    *groupWriter
	base []*resource.State // the resources of the operation's base state

	mu      sync.Mutex
	touched map[int]bool // base resources an entry has recorded a change of
}

// Append implements snapshot.Journal. An entry that keeps a base resource
// exactly as it was, when no entry has changed that resource before, is
// not written at all: replay keeps the resource as it is anyway. (A no-change
// update writes no journal lines but its header.)
func (j *journal) Append(e snapshot.JournalEntry) error {
	if j.unchanged(e) {
		return nil
	}
	je, err := j.enc.JournalEntry(e)
	if err != nil {
		return fmt.Errorf("journaling %s: %w", e.Kind, err)
	}
	line, err := json.Marshal(journalLine{Entry: je})
	if err != nil {
		return fmt.Errorf("journaling %s: %w", e.Kind, err)
	}
	line = append(line, '\n')
	return j.w.Append(line)
}

// unchanged reports whether e keeps a base resource as it was and no entry
// before it changed that resource; otherwise it notes the base resources e
// changes.
func (j *journal) unchanged(e snapshot.JournalEntry) bool {
	keeps := j.keepsBase(e)
	j.mu.Lock()
	defer j.mu.Unlock()
	if keeps && !j.touched[*e.RemoveOld] {
		return true
	}
	if j.touched == nil {
		j.touched = map[int]bool{}
	}
	for _, i := range []*int{e.RemoveOld, e.MarkDeleteOld, e.PendingReplacementOld} {
		if i != nil {
			j.touched[*i] = true
		}
	}
	return false
}

// keepsBase reports whether e does nothing but record a base resource with
// the very state it had (a same step that changed nothing).
func (j *journal) keepsBase(e snapshot.JournalEntry) bool {
	if e.Kind != snapshot.EntrySuccess || e.State == nil || e.RemoveOld == nil || *e.RemoveOld >= len(j.base) ||
		e.RemoveNew != nil || e.MarkDeleteOld != nil || e.PendingReplacementOld != nil || e.TargetNew != nil || e.ClearPending != nil {
		return false
	}
	return e.State.Equal(j.base[*e.RemoveOld])
}
