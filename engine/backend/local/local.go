package local

import (
	"fmt"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
)

// Options configure a local backend.
type Options = backend.Options

// Backend keeps stacks in a directory, in Pulumi's DIY layout.
type Backend struct {
	dir    string
	layout layout
	opts   Options
	host   string
	user   string
}

var _ backend.Backend = (*Backend)(nil)

// Open opens the backend of a file:// URL: file:///abs/dir, file://rel/dir
// or file://~/dir.
func Open(rawURL string, opts Options) (*Backend, error) {
	dir, ok := strings.CutPrefix(rawURL, "file://")
	if !ok {
		return nil, fmt.Errorf("backend URL %q is not a file:// URL", rawURL)
	}
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("backend URL %q: %w", rawURL, err)
		}
		dir = home + rest
	}
	if dir == "" {
		return nil, fmt.Errorf("backend URL %q names no directory", rawURL)
	}
	return New(dir, opts)
}

// New opens (creating it if needed) the backend kept in dir.
func New(dir string, opts Options) (*Backend, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b := &Backend{dir: abs, layout: layout{root: filepath.Join(abs, ".pulumi")}, opts: opts}
	if err := b.layout.ensureMeta(); err != nil {
		return nil, fmt.Errorf("opening the state directory %s: %w", abs, err)
	}
	if b.host, err = os.Hostname(); err != nil {
		return nil, fmt.Errorf("reading the host name, which stack locks record: %w", err)
	}
	b.user = os.Getenv("USER")
	if u, err := user.Current(); err == nil {
		b.user = u.Username
	}
	return b, nil
}

// URL implements backend.Backend.
func (b *Backend) URL() string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(b.dir)}).String()
}
