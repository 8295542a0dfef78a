package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// readJournal reads the journal at path, or returns nil if there is none.
func readJournal(path string) (*backend.Journal, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return backend.ParseJournal(path, data)
}

// createJournal writes a journal holding only its header (complete or not
// at all: through a temporary file) and opens it for appending. The journal
// is also returned flocked, from before it appears: close that file once
// the operation has finished, so that no other process recovers the
// journal while its operation runs.
func createJournal(path string, h backend.JournalHeader) (*backend.GroupWriter, *os.File, error) {
	line, err := json.Marshal(backend.JournalLine{Header: &h})
	if err != nil {
		return nil, nil, err
	}
	held, err := replaceFile(path, atomicfile.Bytes(append(line, '\n')), true)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, fileMode)
	if err != nil {
		held.Close()
		return nil, nil, err
	}
	return backend.NewGroupWriter(func(batch []byte) error {
		_, err := f.Write(batch)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			return fmt.Errorf("writing the journal %s: %w", path, err)
		}
		return nil
	}, f.Close), held, nil
}

// markCompacted appends to the journal at path, if there is one, that the
// state with the given hash holds everything it recorded; a crash between
// writing that state and removing the journal then leaves a journal that
// is known to be done.
func markCompacted(path, hash string) error {
	line, err := json.Marshal(backend.JournalLine{Compacted: hash})
	if err != nil {
		return err
	}
	err = atomicfile.WriteSynced(path, atomicfile.Bytes(append(line, '\n')), os.O_WRONLY|os.O_APPEND, fileMode)
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
	return atomicfile.SyncDir(filepath.Dir(path))
}
