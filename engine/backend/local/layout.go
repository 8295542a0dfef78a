package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
)

// layout names the files of Pulumi's DIY layout (meta.yaml version 1,
// project-scoped stacks) under a backend directory, plus Cairn's journals:
//
//	.pulumi/meta.yaml
//	.pulumi/stacks/<project>/<stack>.json[.gz]       the state
//	.pulumi/journals/<project>/<stack>.journal       the running operation's journal
//	.pulumi/backups/<project>/<stack>/<stack>.<ns>.json[.gz]
//	.pulumi/history/<project>/<stack>/<stack>-<ns>.history.json[.gz]
//	.pulumi/locks/organization/<project>/<stack>/cairn.json
//	.pulumi/stacks/<project>/<stack>.pulumi-tags     the stack's tags
type layout struct {
	root string // DIR/.pulumi
}

func (l layout) meta() string { return filepath.Join(l.root, "meta.yaml") }

func (l layout) stacksDir() string { return filepath.Join(l.root, "stacks") }

// stackFile is where the stack's state is written: <stack>.json, or
// <stack>.json.gz compressed.
func (l layout) stackFile(ref backend.StackRef, gzip bool) string {
	path := filepath.Join(l.stacksDir(), ref.Project, ref.Name+".json")
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

func (l layout) journal(ref backend.StackRef) string {
	return filepath.Join(l.root, "journals", ref.Project, ref.Name+".journal")
}

func (l layout) backups(ref backend.StackRef) string {
	return filepath.Join(l.root, "backups", ref.Project, ref.Name)
}

func (l layout) history(ref backend.StackRef) string {
	return filepath.Join(l.root, "history", ref.Project, ref.Name)
}

// tags is the stack's tags file, Pulumi's.
func (l layout) tags(ref backend.StackRef) string {
	return filepath.Join(l.stacksDir(), ref.Project, ref.Name+".pulumi-tags")
}

// oldTags is where Cairn kept a stack's tags before it used Pulumi's file.
func (l layout) oldTags(ref backend.StackRef) string {
	return filepath.Join(l.root, "tags", ref.Project, ref.Name+".json")
}

func (l layout) locks(ref backend.StackRef) string {
	return filepath.Join(l.root, "locks", backend.Organization, ref.Project, ref.Name)
}

// layoutVersion is the DIY layout Cairn reads and writes.
const layoutVersion = 1

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
		return writeFileAtomic(l.meta(), []byte("version: "+strconv.Itoa(layoutVersion)+"\n"))
	}
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "version:"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n == layoutVersion {
				return nil
			}
			return fmt.Errorf("%s: layout version %s; Cairn reads version %d (run `pulumi state upgrade`)", l.meta(), strings.TrimSpace(v), layoutVersion)
		}
	}
	return fmt.Errorf("%s has no version; it is corrupt, or not a state directory", l.meta())
}
