package tfinstall

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// fsMirror is a folder of provider packages, in either layout:
//
//	HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip   (packed)
//	HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/                               (unpacked)
//
// Cairn's own cache and the plugin cache are folders of the unpacked
// layout too.
type fsMirror struct {
	dir  string
	what string // "filesystem mirror", "plugin cache", ...
}

func (m *fsMirror) String() string { return m.what + " " + m.dir }

func (m *fsMirror) remote() bool { return false }

// typeDir returns the folder of p in the mirror, matching each of its
// three levels without regard to case; "" when there is none.
func (m *fsMirror) typeDir(p Provider) string {
	dir := m.dir
	for _, name := range []string{p.Hostname.ForDisplay(), p.Namespace, p.Type} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return ""
		}
		found := ""
		for _, e := range entries {
			if strings.EqualFold(e.Name(), name) && isDir(filepath.Join(dir, e.Name())) {
				found = e.Name()
				break
			}
		}
		if found == "" {
			return ""
		}
		dir = filepath.Join(dir, found)
	}
	return dir
}

// has reports whether the mirror holds any version of p, for any platform.
func (m *fsMirror) has(p Provider) bool {
	entries, _ := os.ReadDir(m.typeDir(p))
	return len(entries) > 0
}

// zipName is a packed package's file name.
func zipName(p Provider, v Version) string {
	return "terraform-provider-" + p.Type + "_" + v.String() + "_" + platform + ".zip"
}

func (m *fsMirror) versions(_ context.Context, p Provider) ([]Version, error) {
	dir := m.typeDir(p)
	entries, err := os.ReadDir(dir)
	if dir == "" || err != nil {
		return nil, errNotFound
	}
	var vs []Version
	prefix, suffix := "terraform-provider-"+p.Type+"_", "_"+platform+".zip"
	for _, e := range entries {
		name := e.Name()
		if v, err := tfaddr.ParseVersion(name); err == nil && isDir(filepath.Join(dir, name, platform)) {
			vs = append(vs, v)
		}
		if rest, ok := strings.CutPrefix(name, prefix); ok && strings.HasSuffix(rest, suffix) {
			if v, err := tfaddr.ParseVersion(strings.TrimSuffix(rest, suffix)); err == nil && !slices.ContainsFunc(vs, v.Same) {
				vs = append(vs, v)
			}
		}
	}
	if len(vs) == 0 {
		return nil, errNotFound
	}
	return vs, nil
}

func (m *fsMirror) fetch(_ context.Context, p Provider, v Version, _ string) (*fetched, error) {
	dir := m.typeDir(p)
	if dir == "" {
		return nil, errNotFound
	}
	if unpacked := filepath.Join(dir, v.String(), platform); isDir(unpacked) {
		return &fetched{dir: unpacked, auth: "unauthenticated: a folder carries no checksums"}, nil
	}
	if zip := filepath.Join(dir, zipName(p, v)); isFile(zip) {
		return &fetched{zip: zip, auth: "unauthenticated: a folder carries no checksums"}, nil
	}
	return nil, errNotFound
}
