package local

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// Pulumi's DIY backend writes a stack's state compressed when
// PULUMI_DIY_BACKEND_GZIP is set (<stack>.json.gz, its backups and history
// records likewise) or PULUMI_DIY_BACKEND_ZSTD (.json.zst). Cairn reads
// gzip, and writes the state compressed when Options.Gzip says so.
const (
	gzipExt = diy.GzipSuffix
	zstdExt = diy.ZstdSuffix
)

// readState reads a state file, a backup or a history record, decompressing
// a .gz one.
func readState(path string) ([]byte, error) {
	if strings.HasSuffix(path, zstdExt) {
		return diy.Decode(path, nil)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return diy.Decode(path, data)
}

// gzipped is data compressed with gzip as it is written.
type gzipped struct{ data io.WriterTo }

func (g gzipped) WriteTo(w io.Writer) (int64, error) {
	c := &counter{w: w}
	z := gzip.NewWriter(c)
	_, err := g.data.WriteTo(z)
	if cerr := z.Close(); err == nil {
		err = cerr
	}
	return c.n, err
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// stateExt is the extension of a state file, a backup or a history record:
// .json, .json.gz or .json.zst.
func stateExt(path string) string {
	for _, ext := range []string{gzipExt, zstdExt} {
		if strings.HasSuffix(path, ".json"+ext) {
			return ".json" + ext
		}
	}
	return filepath.Ext(path)
}

// globStates lists the files matching a pattern ending in .json, and their
// compressed forms, in the order of their names without the compression's
// extension (names that differ only by a time of equal length: oldest
// first).
func globStates(pattern string) ([]string, error) {
	var files []string
	for _, ext := range []string{"", gzipExt, zstdExt} {
		f, err := filepath.Glob(pattern + ext)
		if err != nil {
			return nil, err
		}
		files = append(files, f...)
	}
	sort.SliceStable(files, func(i, j int) bool {
		return strings.TrimSuffix(files[i], stateExt(files[i])) < strings.TrimSuffix(files[j], stateExt(files[j]))
	})
	return files, nil
}
