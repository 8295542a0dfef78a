package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileReportsCloseError checks that a file whose contents were
// written but which failed to close is reported as not written.
func TestWriteFileReportsCloseError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	err := writeFile(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, "{}\n"); err != nil {
			return err
		}
		return w.(*os.File).Close() // the next Close fails
	})
	if err == nil {
		t.Fatal("writeFile returned nil although closing the file failed")
	}
}

// TestWriteFileReportsWriteError checks that a failed write wins over the
// close that follows it.
func TestWriteFileReportsWriteError(t *testing.T) {
	err := writeFile("/dev/full", func(w io.Writer) error {
		_, err := io.WriteString(w, "{}\n")
		return err
	})
	if err == nil {
		t.Fatal("writeFile to /dev/full returned nil")
	}
}
