package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

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

// stackFile is where the stack's state is written: <stack>.json, or
// <stack>.json.gz compressed.
func (l layout) stackFile(ref backend.StackRef, gzip bool) string {
	path := l.path(diy.Stack(ref))
	if gzip {
		path += gzipExt
	}
	return path
}

// stack is the stack's state file: of <stack>.json and the compressed
// forms Pulumi writes (.json.gz, .json.zst), the one modified last, as
// Pulumi picks; <stack>.json when there is none.
func (l layout) stack(ref backend.StackRef) string {
	plain := l.stackFile(ref, false)
	best, newest := plain, time.Time{}
	for _, path := range []string{plain, plain + gzipExt, plain + zstdExt} {
		if fi, err := os.Stat(path); err == nil && !fi.ModTime().Before(newest) {
			best, newest = path, fi.ModTime()
		}
	}
	return best
}

func (l layout) journal(ref backend.StackRef) string { return l.path(diy.Journal(ref)) }

func (l layout) backups(ref backend.StackRef) string { return l.path(diy.Backups(ref)) }

func (l layout) history(ref backend.StackRef) string { return l.path(diy.History(ref)) }

// tags is the stack's tags file, Pulumi's.
func (l layout) tags(ref backend.StackRef) string { return l.path(diy.Tags(ref)) }

// oldTags is where Cairn kept a stack's tags before it used Pulumi's file.
func (l layout) oldTags(ref backend.StackRef) string { return l.path(diy.OldTags(ref)) }

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
