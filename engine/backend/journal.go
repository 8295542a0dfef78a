package backend

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// JournalVersion is the version of the journal format.
const JournalVersion = 1

// JournalLine is one line of an operation's journal, a JSON object: a
// header, then the operation's entries in the order they became durable
// (not necessarily sequence order), and, once the operation's state has
// been written, a compacted line with the hash of that state.
type JournalLine struct {
	Header    *JournalHeader        `json:"header,omitempty"`
	Entry     *state.JournalEntryV1 `json:"entry,omitempty"`
	Compacted string                `json:"compacted,omitempty"`
}

// JournalHeader says which operation wrote a journal, from which state.
type JournalHeader struct {
	Version int           `json:"version"`
	Kind    OperationKind `json:"kind"`
	Message string        `json:"message,omitempty"`
	Started time.Time     `json:"started"`
	// Base is the hex SHA-256 of the state the operation began from; the
	// entries name its resources by index.
	Base string `json:"base"`
	// SecretsProviders encrypted the entries' secrets.
	SecretsProviders *state.SecretsProvidersV1 `json:"secrets_providers,omitempty"`
}

// NewJournalHeader describes an operation beginning at started from the
// state whose hash is base; its message is masked.
func NewJournalHeader(info OperationInfo, started time.Time, base string) JournalHeader {
	h := JournalHeader{Version: JournalVersion, Kind: info.Kind, Message: info.Masker.Mask(info.Message), Started: started, Base: base}
	if sm := info.Secrets; sm != nil {
		h.SecretsProviders = &state.SecretsProvidersV1{Type: sm.Type(), State: sm.State()}
	}
	return h
}

// Journal is an operation's journal as read back.
type Journal struct {
	Where     string // where it is kept, for errors
	Header    JournalHeader
	Entries   []state.JournalEntryV1
	Compacted string // the hash of the state the journal was compacted into, if it was
}

// ParseJournal reads the lines of a journal kept at where. A last line
// without its newline is a write a crash cut short; no Append returned for
// it, so it is left out.
func ParseJournal(where string, data []byte) (*Journal, error) {
	j := &Journal{Where: where}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
	}
	for n, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var l JournalLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("journal %s is corrupt at line %d: %w", where, n+1, err)
		}
		switch {
		case n == 0 && l.Header == nil:
			return nil, fmt.Errorf("journal %s does not start with a header; it is not a Cairn journal", where)
		case l.Header != nil:
			j.Header = *l.Header
		case l.Entry != nil:
			j.Entries = append(j.Entries, *l.Entry)
		case l.Compacted != "":
			j.Compacted = l.Compacted
		}
	}
	if j.Header.Version != JournalVersion {
		return nil, fmt.Errorf("journal %s has version %d; this Cairn reads version %d", where, j.Header.Version, JournalVersion)
	}
	return j, nil
}

// Replay applies the journal's entries to the state it began from.
func (j *Journal) Replay(base *snapshot.Snapshot, sm secrets.Manager) (*snapshot.Snapshot, error) {
	dec := state.NewDecoder(sm)
	entries := make([]snapshot.JournalEntry, 0, len(j.Entries))
	for i := range j.Entries {
		e, err := dec.JournalEntry(&j.Entries[i], j.Header.SecretsProviders)
		if err != nil {
			return nil, fmt.Errorf("replaying journal %s: %w", j.Where, err)
		}
		entries = append(entries, e)
	}
	return state.Replay(base, entries), nil
}

// JournalWriter is an operation's snapshot.Journal: each entry is encoded
// like a checkpoint resource, secrets encrypted, and appended as one line
// through a group writer, so the bytes a step writes depend on the
// resource it touches, not on the size of the stack.
type JournalWriter struct {
	enc  *state.Encoder
	w    *GroupWriter
	base []*resource.State // the resources of the operation's base state

	mu      sync.Mutex
	touched map[int]bool // base resources an entry has recorded a change of
}

// NewJournalWriter journals, through w, an operation whose base state has
// the resources base.
func NewJournalWriter(enc *state.Encoder, base []*resource.State, w *GroupWriter) *JournalWriter {
	return &JournalWriter{enc: enc, w: w, base: base}
}

// Close waits for the queued entries and stops the group writer.
func (j *JournalWriter) Close() error { return j.w.Close() }

// Append implements snapshot.Journal. An entry that keeps a base resource
// exactly as it was, when no entry has changed that resource before, is
// not written at all: replay keeps the resource as it is anyway. (A no-change
// update writes no journal lines but its header.)
func (j *JournalWriter) Append(e snapshot.JournalEntry) error {
	if j.unchanged(e) {
		return nil
	}
	je, err := j.enc.JournalEntry(e)
	if err != nil {
		return fmt.Errorf("journaling %s: %w", e.Kind, err)
	}
	line, err := json.Marshal(JournalLine{Entry: je})
	if err != nil {
		return fmt.Errorf("journaling %s: %w", e.Kind, err)
	}
	return j.w.Append(append(line, '\n'))
}

// unchanged reports whether e keeps a base resource as it was and no entry
// before it changed that resource; otherwise it notes the base resources e
// changes.
func (j *JournalWriter) unchanged(e snapshot.JournalEntry) bool {
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
func (j *JournalWriter) keepsBase(e snapshot.JournalEntry) bool {
	if e.Kind != snapshot.EntrySuccess || e.State == nil || e.RemoveOld == nil || *e.RemoveOld >= len(j.base) ||
		e.RemoveNew != nil || e.MarkDeleteOld != nil || e.PendingReplacementOld != nil || e.TargetNew != nil || e.ClearPending != nil {
		return false
	}
	return e.State.Equal(j.base[*e.RemoveOld])
}
