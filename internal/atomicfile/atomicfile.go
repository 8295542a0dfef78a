// Package atomicfile replaces files so that a reader, or a crash, finds
// the old content or the new and nothing in between: the new content goes
// to a temporary file in the same folder, which is synced, renamed over
// the file, and the folder synced.
//
//	err := atomicfile.Write(path, data, atomicfile.Perm(path, 0o644))
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write replaces the file at path with data, giving it the permissions
// perm. The folder must exist.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFrom(path, Bytes(data), perm, nil)
}

// WriteFrom is Write for content that writes itself. before, when not
// nil, is called with the temporary file's path once it is written and
// synced, before it is renamed over path; an error from it leaves path as
// it was.
func WriteFrom(path string, data io.WriterTo, perm os.FileMode, before func(tmp string) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f, data)
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil && before != nil {
		err = before(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(dir)
}

// Perm returns the permissions of the file at path, or perm when there is
// none: for a replacement that keeps the permissions a user gave a file.
func Perm(path string, perm os.FileMode) os.FileMode {
	if info, err := os.Stat(path); err == nil {
		return info.Mode().Perm()
	}
	return perm
}

// WriteSynced writes data to the file at path opened with flag (to append
// to it, or to create it) and syncs it.
func WriteSynced(path string, data io.WriterTo, flag int, perm os.FileMode) error {
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return err
	}
	return write(f, data)
}

// write writes data to f, syncs and closes it.
func write(f *os.File, data io.WriterTo) error {
	w := bufio.NewWriterSize(f, 1<<20) // data may come in many small pieces
	_, err := data.WriteTo(w)
	if err == nil {
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

// SyncDir makes the entries of a folder durable: a file created, renamed
// or removed in it.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("syncing the folder %s: %w", dir, err)
	}
	return nil
}

// Bytes is content in memory. Unlike a bytes.Reader, it can be written
// more than once.
type Bytes []byte

// WriteTo writes b to w.
func (b Bytes) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(b)
	return int64(n), err
}
