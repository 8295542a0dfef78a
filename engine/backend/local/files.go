package local

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Permissions of what the backend creates: states name cloud resources and
// may hold sensitive outputs, so they are the user's alone.
const (
	dirMode  = 0o700
	fileMode = 0o600
)

// writeFileAtomic writes data to path so that a reader, or a crash, sees the
// old file or the new one and nothing in between: a temporary file beside
// it, synced, renamed over it, and the directory synced.
func writeFileAtomic(path string, data []byte) error {
	_, err := replaceFile(path, fileBytes(data), false)
	return err
}

// fileBytes is a file's content in memory. Like a state.EncodedCheckpoint,
// and unlike a bytes.Reader, it can be written more than once.
type fileBytes []byte

func (b fileBytes) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(b)
	return int64(n), err
}

// replaceFile is writeFileAtomic; with flock, the new file is returned open
// and flocked, from before it appears at path.
func replaceFile(path string, data io.WriterTo, flock bool) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, err
	}
	tmp := path + ".tmp-" + randomSuffix()
	err := writeSynced(tmp, data, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	var f *os.File
	if err == nil && flock {
		f, err = openFlocked(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		os.Remove(tmp)
		if f != nil {
			f.Close()
		}
		return nil, err
	}
	return f, nil
}

// writeSynced writes data to a file opened with flag and syncs it.
func writeSynced(path string, data io.WriterTo, flag int) error {
	f, err := os.OpenFile(path, flag, fileMode)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20) // data may come in many small pieces
	if _, err = data.WriteTo(w); err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes the entries of a directory durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// randomSuffix names temporary files uniquely.
func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
