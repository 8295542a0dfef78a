package install

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/locate"
)

// Spec names a plugin to install and where it comes from.
type Spec struct {
	Kind    locate.Kind
	Name    string
	Version string // without "v"
	// Server is the plugin's download URL (Pulumi's pluginDownloadURL or
	// --server); empty means Pulumi's release locations.
	Server string
	// Checksum is the SHA-256 of the tarball in hex; empty skips the check.
	Checksum string
}

func (s Spec) String() string { return fmt.Sprintf("%s plugin %s v%s", s.Kind, s.Name, s.Version) }

// Folder returns the name of s's folder in a plugin cache.
func (s Spec) Folder() string { return fmt.Sprintf("%s-%s-v%s", s.Kind, s.Name, s.Version) }

// Installer installs plugins into a cache folder.
type Installer struct {
	Dir       string       // the cache, e.g. $CAIRN_HOME/plugins
	Client    *http.Client // nil means http.DefaultClient
	Overrides []Override
	// Progress, when set, receives a progress bar of each download.
	Progress io.Writer
	// GitHubToken (GITHUB_TOKEN) is sent, over https only, to GitHub's
	// API host api.github.com and to the hosts of GitHubHosts: never to a
	// host a program's download URL names, nor on a redirect elsewhere.
	GitHubToken string
	// GitHubHosts are further hosts (host or host:port) trusted with
	// GitHubToken: the API hosts of GitHub Enterprise servers.
	GitHubHosts []string
	// Warn, when set, receives warnings: a download over plain http with
	// no checksum to check it against.
	Warn func(string)
}

// Ensure returns the binary of s found in dirs at exactly s's version,
// installing it first when none is: what a language host's required
// plugins and automatic installation call.
func (in *Installer) Ensure(ctx context.Context, dirs locate.Dirs, s Spec) (string, error) {
	for _, c := range dirs.Find(s.Kind, s.Name) {
		if c.Version == s.Version {
			return c.Path, nil
		}
	}
	dir, err := in.Install(ctx, s)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, s.Kind.Binary(s.Name)), nil
}

// Install downloads s and installs it, returning its folder. An installed
// plugin is left as it is.
func (in *Installer) Install(ctx context.Context, s Spec) (string, error) {
	return in.locked(s, func(tmp *os.File) error {
		var errs []error
		for _, src := range in.sources(s) {
			body, size, u, err := in.open(ctx, s, src)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", u, err))
				continue
			}
			if strings.HasPrefix(u, "http://") && s.Checksum == "" && in.Warn != nil {
				in.Warn(fmt.Sprintf("%s is downloaded over plain http from %s, with no checksum to check it against, so anyone on the way can change it; "+
					"serve it over https, or install it first with its SHA-256: cairn plugin install %s %s %s --server %s --checksum SHA256",
					s, u, s.Kind, s.Name, s.Version, src))
			}
			_, err = io.Copy(tmp, in.progress(s, body, size))
			body.Close()
			if err == nil && size >= 0 {
				if n, _ := tmp.Seek(0, io.SeekCurrent); n != size {
					err = fmt.Errorf("the download was cut short after %d of %d bytes", n, size)
				}
			}
			if err != nil {
				return fmt.Errorf("downloading %s from %s: %w", s, u, err)
			}
			return nil
		}
		return fmt.Errorf("downloading %s: %w; without network access, download %s elsewhere and run: cairn plugin install %s %s %s --file %s",
			s, errors.Join(errs...), s.Asset(), s.Kind, s.Name, s.Version, s.Asset())
	})
}

// InstallFile installs s from a tarball on disk, returning its folder.
func (in *Installer) InstallFile(s Spec, tarball string) (string, error) {
	return in.locked(s, func(tmp *os.File) error {
		f, err := os.Open(tarball)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tmp, f)
		return err
	})
}

// locked installs s under its lock: fill writes the tarball into a
// temporary file, which is checked and extracted into a temporary folder
// renamed into place.
func (in *Installer) locked(s Spec, fill func(tmp *os.File) error) (string, error) {
	final := filepath.Join(in.Dir, s.Folder())
	if err := os.MkdirAll(in.Dir, 0o755); err != nil {
		return "", err
	}
	lock, err := os.OpenFile(final+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := flock(lock); err != nil {
		return "", fmt.Errorf("locking %s: %w", lock.Name(), err)
	}
	if _, err := os.Stat(final + ".partial"); err != nil && installed(s, final) {
		return final, nil
	}
	tmp, err := os.CreateTemp(in.Dir, ".download-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := fill(tmp); err != nil {
		return "", err
	}
	if err := verify(s, tmp); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(in.Dir, ".install-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := extract(tmp, dir); err != nil {
		return "", fmt.Errorf("extracting %s: %w", s, err)
	}
	if !installed(s, dir) {
		return "", fmt.Errorf("the tarball of %s has no %s at its top level", s, s.Kind.Binary(s.Name))
	}
	// A folder left by an interrupted Pulumi install carries a .partial
	// marker; replace it.
	if err := os.RemoveAll(final); err != nil {
		return "", err
	}
	if err := os.Rename(dir, final); err != nil {
		return "", err
	}
	if err := os.Remove(final + ".partial"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return final, nil
}

// installed reports whether dir holds the binary of s.
func installed(s Spec, dir string) bool {
	info, err := os.Stat(filepath.Join(dir, s.Kind.Binary(s.Name)))
	return err == nil && info.Mode().IsRegular()
}

// verify checks the tarball in f against s's checksum, if it has one.
func verify(s Spec, f *os.File) error {
	if s.Checksum == "" {
		return nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, s.Checksum) {
		return fmt.Errorf("the tarball of %s has SHA-256 %s, not the expected %s: it was not installed", s, got, s.Checksum)
	}
	return nil
}

// extract unpacks the gzipped tarball in f into dir, refusing entries that
// would land outside it.
func extract(f *os.File, dir string) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q is outside the plugin folder", h.Name)
		}
		path := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			err = writeFile(path, tr, h.FileInfo().Mode().Perm())
		default:
			continue // links and devices are not part of plugin releases
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Remove deletes the installed plugins of kind k named name from the cache,
// only the version given unless it is empty, and returns their folders.
func (in *Installer) Remove(k locate.Kind, name, version string) ([]string, error) {
	var removed []string
	for _, c := range (locate.Dirs{Plugins: []string{in.Dir}}).Find(k, name) {
		if c.Version == "" || (version != "" && c.Version != version) {
			continue
		}
		dir := filepath.Dir(c.Path)
		if err := os.RemoveAll(dir); err != nil {
			return removed, err
		}
		_ = os.Remove(dir + ".lock")
		removed = append(removed, dir)
	}
	return removed, nil
}
