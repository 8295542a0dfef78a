package resource

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Asset is a blob: literal text, a file path or a URI, with the SHA-256 hash
// of its contents.
type Asset struct {
	Hash string
	Text string
	Path string
	URI  string
}

// Archive is a collection of assets and archives by name, or a reference to an
// archive file, directory or URI, with the SHA-256 hash of its contents.
type Archive struct {
	Hash   string
	Assets map[string]any // *Asset or *Archive
	Path   string
	URI    string
}

// NewTextAsset returns a literal text asset with its hash computed.
func NewTextAsset(text string) *Asset {
	sum := sha256.Sum256([]byte(text))
	return &Asset{Text: text, Hash: hex.EncodeToString(sum[:])}
}

// NewPathAsset returns an asset for the file at path, hashing its contents.
func NewPathAsset(path string) (*Asset, error) {
	a := &Asset{Path: path}
	return a, a.EnsureHash("")
}

// IsText reports whether the asset holds literal text.
func (a *Asset) IsText() bool { return a.Path == "" && a.URI == "" }

// Equal reports whether a and b are the same asset.
func (a *Asset) Equal(b *Asset) bool {
	if a.Hash != "" && b.Hash != "" {
		return a.Hash == b.Hash
	}
	return a.Text == b.Text && a.Path == b.Path && a.URI == b.URI
}

func (a *Asset) describe() string {
	switch {
	case a.Path != "":
		return "file:" + a.Path
	case a.URI != "":
		return a.URI
	}
	return fmt.Sprintf("text, %d bytes", len(a.Text))
}

// Bytes reads the asset's contents; relative paths are resolved against dir.
func (a *Asset) Bytes(dir string) ([]byte, error) {
	switch {
	case a.Path != "":
		return os.ReadFile(resolve(dir, a.Path))
	case a.URI != "":
		if p, ok := strings.CutPrefix(a.URI, "file://"); ok {
			return os.ReadFile(p)
		}
		return nil, fmt.Errorf("asset %s: fetching remote assets is not supported here", a.URI)
	}
	return []byte(a.Text), nil
}

// EnsureHash computes the asset's hash if it has none.
func (a *Asset) EnsureHash(dir string) error {
	if a.Hash != "" {
		return nil
	}
	data, err := a.Bytes(dir)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	a.Hash = hex.EncodeToString(sum[:])
	return nil
}

// Equal reports whether a and b are the same archive.
func (a *Archive) Equal(b *Archive) bool {
	if a.Hash != "" && b.Hash != "" {
		return a.Hash == b.Hash
	}
	if a.Path != b.Path || a.URI != b.URI || len(a.Assets) != len(b.Assets) {
		return false
	}
	for k, x := range a.Assets {
		y, ok := b.Assets[k]
		if !ok || !FromGo(x).Equal(FromGo(y)) {
			return false
		}
	}
	return true
}

func (a *Archive) describe() string {
	switch {
	case a.Path != "":
		return "file:" + a.Path
	case a.URI != "":
		return a.URI
	}
	return fmt.Sprintf("%d members", len(a.Assets))
}

// EnsureHash computes the archive's hash if it has none: for a file, the hash
// of its bytes; for a directory or a map of members, the hash of the sorted
// member names and member hashes.
func (a *Archive) EnsureHash(dir string) error {
	if a.Hash != "" {
		return nil
	}
	h := sha256.New()
	switch {
	case a.URI != "":
		p, ok := strings.CutPrefix(a.URI, "file://")
		if !ok {
			return fmt.Errorf("archive %s: fetching remote archives is not supported here", a.URI)
		}
		return a.hashPath(p, h)
	case a.Path != "":
		if err := a.hashPath(resolve(dir, a.Path), h); err != nil {
			return err
		}
	default:
		names := make([]string, 0, len(a.Assets))
		for n := range a.Assets {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			var sub string
			switch m := a.Assets[n].(type) {
			case *Asset:
				if err := m.EnsureHash(dir); err != nil {
					return err
				}
				sub = m.Hash
			case *Archive:
				if err := m.EnsureHash(dir); err != nil {
					return err
				}
				sub = m.Hash
			default:
				return fmt.Errorf("archive member %q is %T, want an asset or archive", n, m)
			}
			fmt.Fprintf(h, "%s\x00%s\x00", n, sub)
		}
	}
	a.Hash = hex.EncodeToString(h.Sum(nil))
	return nil
}

func (a *Archive) hashPath(path string, h io.Writer) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	}
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s\x00%x\x00", filepath.ToSlash(rel), sum)
		return nil
	})
}

// Files returns the archive's members as file name → contents, reading
// directories, tar, tar.gz and zip files. Relative paths resolve against dir.
func (a *Archive) Files(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	switch {
	case a.Path != "":
		return readArchivePath(resolve(dir, a.Path))
	case a.URI != "":
		p, ok := strings.CutPrefix(a.URI, "file://")
		if !ok {
			return nil, fmt.Errorf("archive %s: fetching remote archives is not supported here", a.URI)
		}
		return readArchivePath(p)
	}
	for name, m := range a.Assets {
		switch m := m.(type) {
		case *Asset:
			data, err := m.Bytes(dir)
			if err != nil {
				return nil, err
			}
			out[name] = data
		case *Archive:
			sub, err := m.Files(dir)
			if err != nil {
				return nil, err
			}
			for n, data := range sub {
				out[name+"/"+n] = data
			}
		}
	}
	return out, nil
}

func readArchivePath(path string) (map[string][]byte, error) {
	out := map[string][]byte{}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(path, p)
			data, err := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = data
			return err
		})
		return out, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lower := strings.ToLower(path)
	switch {
	case strings.HasSuffix(lower, ".zip") || strings.HasSuffix(lower, ".jar"):
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
			out[f.Name] = b
		}
		return out, nil
	case strings.HasSuffix(lower, ".tgz") || strings.HasSuffix(lower, ".tar.gz"):
		gz, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return readTar(gz)
	case strings.HasSuffix(lower, ".tar"):
		return readTar(bytes.NewReader(data))
	}
	return nil, fmt.Errorf("archive %s: unknown format (want a directory, .tar, .tgz, .tar.gz, .zip or .jar)", path)
}

func readTar(r io.Reader) (map[string][]byte, error) {
	out := map[string][]byte{}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out[hdr.Name] = b
	}
}

func resolve(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}
