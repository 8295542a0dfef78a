package tfinstall

import (
	"archive/tar"
	"archive/zip"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxUnpacked bounds the bytes an archive may unpack to, and a module
// package download.
var maxUnpacked int64 = 1 << 30

// archiveFormats are the archive formats modules come in, by the
// extension (or archive= value) that names them.
var archiveFormats = []string{"zip", "tar.gz", "tgz", "tar.bz2", "tbz2", "tar"}

// unzip extracts the provider package zip at path into dir, which must
// exist. Packages hold files and folders only: links are refused.
func unzip(path, dir string) error { return extract(path, "zip", dir, false) }

// entry is a file, folder or symbolic link of an archive.
type entry struct {
	name string
	mode fs.FileMode
	link string // a symbolic link's target
	body io.Reader
}

// extract unpacks the archive at path, of one of archiveFormats, into dir,
// which must exist. Entries that would land outside dir, anything but
// files and folders (and, if links, symbolic links that resolve within
// dir) and more than maxUnpacked bytes in all are refused.
func extract(path, format, dir string, links bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	x := &extractor{root: root, links: links, left: maxUnpacked}
	switch format {
	case "zip":
		err = x.zip(f)
	case "tar.gz", "tgz":
		var gz *gzip.Reader
		if gz, err = gzip.NewReader(f); err == nil {
			err = x.tar(gz)
		}
	case "tar.bz2", "tbz2":
		err = x.tar(bzip2.NewReader(f))
	case "tar":
		err = x.tar(f)
	default:
		return fmt.Errorf("archives of format %q are not unpacked; use one of %s", format, strings.Join(archiveFormats, ", "))
	}
	if err != nil {
		return fmt.Errorf("%s archive %s: %w", format, filepath.Base(path), err)
	}
	// Links come last, so that no file is written through one.
	for _, e := range x.deferred {
		if err := x.symlink(e); err != nil {
			return fmt.Errorf("%s archive %s: %w", format, filepath.Base(path), err)
		}
	}
	return nil
}

type extractor struct {
	root     string
	links    bool
	left     int64   // bytes still allowed
	deferred []entry // symbolic links, made once the files are
}

func (x *extractor) zip(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	z, err := zip.NewReader(f, info.Size())
	if err != nil {
		return fmt.Errorf("not a zip archive: %v", err)
	}
	for _, zf := range z.File {
		e := entry{name: zf.Name, mode: zf.Mode()}
		if e.mode.Perm() == 0 && !e.mode.IsDir() {
			e.mode |= 0o644 // zips made on Windows carry no Unix modes
		}
		r, err := zf.Open()
		if err != nil {
			return fmt.Errorf("entry %q: %v", zf.Name, err)
		}
		if e.mode&fs.ModeSymlink != 0 {
			target, err := io.ReadAll(io.LimitReader(r, 4096))
			if err != nil {
				r.Close()
				return err
			}
			e.link = string(target)
		}
		e.body = r
		err = x.add(e)
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (x *extractor) tar(r io.Reader) error {
	t := tar.NewReader(r)
	for {
		h, err := t.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("not a tar archive: %v", err)
		}
		e := entry{name: h.Name, mode: h.FileInfo().Mode(), link: h.Linkname, body: t}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		if h.Typeflag == tar.TypeLink {
			return fmt.Errorf("entry %q is a hard link; archives of modules hold files, folders and symbolic links", h.Name)
		}
		if err := x.add(e); err != nil {
			return err
		}
	}
}

// add unpacks one entry; a symbolic link waits until the end.
func (x *extractor) add(e entry) error {
	name := filepath.FromSlash(strings.TrimPrefix(e.name, "./"))
	if name == "" || name == "." {
		return nil
	}
	if !filepath.IsLocal(name) {
		return fmt.Errorf("entry %q would land outside the package folder", e.name)
	}
	target := filepath.Join(x.root, name)
	switch mode := e.mode; {
	case mode.IsDir():
		return os.MkdirAll(target, 0o755)
	case mode.IsRegular():
		if err := x.file(e, target); err != nil {
			return fmt.Errorf("entry %q: %v", e.name, err)
		}
		return nil
	case mode&fs.ModeSymlink != 0 && x.links:
		e.name = name
		x.deferred = append(x.deferred, e)
		return nil
	default:
		return fmt.Errorf("entry %q is a %v, not a file", e.name, mode.Type())
	}
}

func (x *extractor) file(e entry, target string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	w, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, e.mode.Perm())
	if err != nil {
		return err
	}
	n, err := io.Copy(w, io.LimitReader(e.body, x.left+1))
	x.left -= n
	if err == nil && x.left < 0 {
		err = fmt.Errorf("the archive unpacks to more than %d MiB", maxUnpacked>>20)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// symlink makes a symbolic link, which must resolve to something within
// the package folder; it is removed again if it does not.
func (x *extractor) symlink(e entry) error {
	if filepath.IsAbs(e.link) {
		return fmt.Errorf("entry %q links to %s, outside the package folder", e.name, e.link)
	}
	path := filepath.Join(x.root, e.name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if parent, err := filepath.EvalSymlinks(filepath.Dir(path)); err != nil || !within(x.root, parent) {
		return fmt.Errorf("entry %q is within a link that leads outside the package folder", e.name)
	}
	if err := os.Symlink(e.link, path); err != nil {
		return fmt.Errorf("entry %q: %v", e.name, err)
	}
	if resolved, err := filepath.EvalSymlinks(path); err != nil || !within(x.root, resolved) {
		os.Remove(path)
		return fmt.Errorf("entry %q links to %s, which is not within the package folder", e.name, e.link)
	}
	return nil
}

// within reports whether path is root or beneath it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}
