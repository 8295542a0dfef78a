package tfinstall

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// unzip extracts the provider package zip at path into dir, which must
// exist. Packages hold files and folders only: links and entries that
// would land outside dir are refused.
func unzip(path, dir string) error {
	z, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("%s is not a zip archive: %v", filepath.Base(path), err)
	}
	defer z.Close()
	for _, f := range z.File {
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("zip entry %q would land outside the package folder", f.Name)
		}
		target := filepath.Join(dir, name)
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case mode.IsRegular():
			if err := extractFile(f, target); err != nil {
				return fmt.Errorf("zip entry %q: %v", f.Name, err)
			}
		default:
			return fmt.Errorf("zip entry %q is a %v, not a file", f.Name, mode.Type())
		}
	}
	return nil
}

func extractFile(f *zip.File, target string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	perm := f.Mode().Perm()
	if perm == 0 {
		perm = 0o644 // zips made on Windows carry no Unix modes
	}
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
