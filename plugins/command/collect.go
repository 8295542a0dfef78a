package command

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
)

// collect adds to outputs the files of the command's directory that its
// assetPaths and archivePaths match: "assets", a map from relative path to
// file asset, and "archive", one archive of them.
func (inv *invocation) collect(outputs resource.Map) error {
	if inv.wantAssets {
		assets, err := matchFiles(inv.dir, inv.assetPaths)
		if err != nil {
			return err
		}
		m := resource.Map{}
		for p, a := range assets {
			m[p] = resource.NewAsset(a)
		}
		outputs["assets"] = resource.Object(m)
	}
	if inv.wantArchive {
		assets, err := matchFiles(inv.dir, inv.archivePaths)
		if err != nil {
			return err
		}
		members := make(map[string]any, len(assets))
		for p, a := range assets {
			members[p] = a
		}
		archive := &resource.Archive{Assets: members}
		if err := archive.EnsureHash(inv.dir); err != nil {
			return err
		}
		outputs["archive"] = resource.NewArchive(archive)
	}
	return nil
}

// matchFiles returns the files under dir that the globs select, as assets by
// slash-separated path relative to dir. The globs apply in order: one that
// starts with "!" drops the files it matches, any other adds them.
func matchFiles(dir string, globs []string) (map[string]*resource.Asset, error) {
	type rule struct {
		re      *regexp.Regexp
		exclude bool
	}
	rules := make([]rule, len(globs))
	for i, g := range globs {
		exclude := strings.HasPrefix(g, "!")
		re, err := compileGlob(strings.TrimPrefix(g, "!"))
		if err != nil {
			return nil, err
		}
		rules[i] = rule{re, exclude}
	}
	out := map[string]*resource.Asset{}
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, r := range rules {
			if !r.re.MatchString(p) {
				continue
			}
			if r.exclude {
				delete(out, p)
				continue
			}
			a, err := resource.NewPathAsset(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil {
				return err
			}
			out[p] = a
		}
		return nil
	})
	return out, err
}
