package local

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// Permissions of what the backend creates: states name cloud resources and
// may hold sensitive outputs, so they are the user's alone.
const (
	dirMode  = 0o700
	fileMode = 0o600
)

// writeFileAtomic writes data to path so that a reader, or a crash, sees the
// old file or the new one and nothing in between.
func writeFileAtomic(path string, data []byte) error {
	_, err := replaceFile(path, atomicfile.Bytes(data), false)
	return err
}

// replaceFile is writeFileAtomic for content that writes itself, creating
// path's folder; with flock, the new file is returned open and flocked,
// from before it appears at path.
func replaceFile(path string, data io.WriterTo, flock bool) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return nil, err
	}
	var f *os.File
	err := atomicfile.WriteFrom(path, data, fileMode, func(tmp string) (err error) {
		if flock {
			f, err = openFlocked(tmp)
		}
		return err
	})
	if err != nil && f != nil {
		f.Close()
		f = nil
	}
	return f, err
}

// randomSuffix names temporary files uniquely.
func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
