package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
)

// layout names the files of Pulumi's DIY layout (meta.yaml version 1,
// project-scoped stacks) under a backend directory, plus Cairn's journals
// and stack tags:
//
//	.pulumi/meta.yaml
//	.pulumi/stacks/<project>/<stack>.json            the state
//	.pulumi/journals/<project>/<stack>.journal       the running operation's journal
//	.pulumi/backups/<project>/<stack>/<stack>.<ns>.json
//	.pulumi/history/<project>/<stack>/<stack>-<ns>.history.json
//	.pulumi/locks/organization/<project>/<stack>/cairn.json
//	.pulumi/tags/<project>/<stack>.json
type layout struct {
	root string // DIR/.pulumi
}

func (l layout) meta() string { return filepath.Join(l.root, "meta.yaml") }

func (l layout) stacksDir() string { return filepath.Join(l.root, "stacks") }

func (l layout) stack(ref backend.StackRef) string {
	return filepath.Join(l.stacksDir(), ref.Project, ref.Name+".json")
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

func (l layout) tags(ref backend.StackRef) string {
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
