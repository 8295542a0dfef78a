package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// layout names the files of Pulumi's DIY layout under a backend directory,
// as package diy names them (shared with the bucket backend).
type layout struct {
	root string // DIR/.pulumi
}

// path is the file of a name of package diy.
func (l layout) path(name string) string {
	return filepath.Join(filepath.Dir(l.root), filepath.FromSlash(name))
}

func (l layout) meta() string { return l.path(diy.Meta) }

func (l layout) stacksDir() string { return l.path(diy.StacksDir) }

func (l layout) stack(ref backend.StackRef) string { return l.path(diy.Stack(ref)) }

func (l layout) journal(ref backend.StackRef) string { return l.path(diy.Journal(ref)) }

func (l layout) backups(ref backend.StackRef) string { return l.path(diy.Backups(ref)) }

func (l layout) history(ref backend.StackRef) string { return l.path(diy.History(ref)) }

func (l layout) tags(ref backend.StackRef) string { return l.path(diy.Tags(ref)) }

func (l layout) locks(ref backend.StackRef) string { return l.path(diy.Locks(ref)) }

// ensureMeta checks the layout version of the directory, writing
// meta.yaml in a new one.
func (l layout) ensureMeta() error {
	data, err := os.ReadFile(l.meta())
	if errors.Is(err, fs.ErrNotExist) {
		if legacy, _ := filepath.Glob(filepath.Join(l.stacksDir(), "*.json")); len(legacy) > 0 {
			return fmt.Errorf("%s holds stacks in the DIY layout of version 0 (not scoped by project); "+
				"run `pulumi state upgrade` on it first", l.root)
		}
		if err := os.MkdirAll(l.root, dirMode); err != nil {
			return err
		}
		return writeFileAtomic(l.meta(), diy.MetaContent())
	}
	if err != nil {
		return err
	}
	return diy.CheckMeta(data, l.meta())
}
