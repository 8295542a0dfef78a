// Package diy names the files of Pulumi's DIY ("self-managed") backend
// layout, version 1 (project-scoped stacks), which Cairn's file and bucket
// backends both keep, plus Cairn's journals. Names are
// relative to the backend's root (a directory, or a bucket and prefix) and
// use "/" as the separator:
//
//	.pulumi/meta.yaml
//	.pulumi/stacks/<project>/<stack>.json            the state (or .json.gz, when Pulumi wrote it compressed)
//	.pulumi/journals/<project>/<stack>…              the running operation's journal
//	.pulumi/backups/<project>/<stack>/<stack>.<ns>.json
//	.pulumi/history/<project>/<stack>/<stack>-<ns>.history.json
//	.pulumi/locks/organization/<project>/<stack>/<id>.json
//	.pulumi/stacks/<project>/<stack>.pulumi-tags     the stack's tags
package diy

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
)

// Root is the folder of the layout under the backend's root.
const Root = ".pulumi"

// LayoutVersion is the layout Cairn reads and writes.
const LayoutVersion = 1

// Names in the layout.
const (
	Meta      = Root + "/meta.yaml"
	StacksDir = Root + "/stacks"
	// LockFile is the name of Cairn's lock among a stack's locks; Pulumi
	// names its own by a UUID. Each respects the other's.
	LockFile = "cairn.json"
	// HistorySuffix ends the name of every history record.
	HistorySuffix = ".history.json"
	// GzipSuffix ends the name of a state Pulumi wrote compressed
	// (PULUMI_DIY_BACKEND_GZIP).
	GzipSuffix = ".gz"
)

// Stack names the state of a stack.
func Stack(ref backend.StackRef) string { return path.Join(StacksDir, ref.Project, ref.Name+".json") }

// Journal names the journal of the operation running on a stack (a file,
// or a folder of objects).
func Journal(ref backend.StackRef) string {
	return path.Join(Root, "journals", ref.Project, ref.Name+".journal")
}

// Backups names the folder of a stack's backups.
func Backups(ref backend.StackRef) string { return path.Join(Root, "backups", ref.Project, ref.Name) }

// BackupName names the backup of a stack's state kept at the time ns.
func BackupName(ref backend.StackRef, ns int64) string {
	return ref.Name + "." + strconv.FormatInt(ns, 10) + ".json"
}

// BackupTime is the time in a backup's name, or 0.
func BackupTime(ref backend.StackRef, name string) int64 {
	ns, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(path.Base(name), ref.Name+"."), ".json"), 10, 64)
	return ns
}

// History names the folder of a stack's history records.
func History(ref backend.StackRef) string { return path.Join(Root, "history", ref.Project, ref.Name) }

// HistoryName names the history record of an operation recorded at ns.
func HistoryName(ref backend.StackRef, ns int64) string {
	return ref.Name + "-" + strconv.FormatInt(ns, 10) + HistorySuffix
}

// HistoryTime is the time in a history record's name, or 0.
func HistoryTime(ref backend.StackRef, name string) int64 {
	name = strings.TrimSuffix(path.Base(name), GzipSuffix)
	ns, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(name, ref.Name+"-"), HistorySuffix), 10, 64)
	return ns
}

// IsHistory says whether an object's name is a history record's, plain or
// compressed as Pulumi writes it with PULUMI_DIY_BACKEND_GZIP.
func IsHistory(name string) bool {
	return strings.HasSuffix(strings.TrimSuffix(name, GzipSuffix), HistorySuffix)
}

// Tags names the file of a stack's tags, Pulumi's.
func Tags(ref backend.StackRef) string {
	return path.Join(StacksDir, ref.Project, ref.Name+".pulumi-tags")
}

// OldTags names where Cairn kept a stack's tags before it used Pulumi's
// file.
func OldTags(ref backend.StackRef) string {
	return path.Join(Root, "tags", ref.Project, ref.Name+".json")
}

// Locks names the folder of a stack's locks.
func Locks(ref backend.StackRef) string {
	return path.Join(Root, "locks", backend.Organization, ref.Project, ref.Name)
}

// MetaContent is the meta.yaml of a new layout.
func MetaContent() []byte { return []byte("version: " + strconv.Itoa(LayoutVersion) + "\n") }

// CheckMeta checks that a meta.yaml (read from where) is of the layout
// version Cairn reads.
func CheckMeta(data []byte, where string) error {
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "version:"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n == LayoutVersion {
				return nil
			}
			return fmt.Errorf("%s: layout version %s; Cairn reads version %d (a newer Pulumi wrote it? run `pulumi state upgrade` "+
				"for an older one)", where, strings.TrimSpace(v), LayoutVersion)
		}
	}
	return fmt.Errorf("%s has no version; it is corrupt, or not a state directory", where)
}

// tagsFile is the content of Pulumi's tags file.
type tagsFile struct {
	Version int          `json:"version"`
	Tags    backend.Tags `json:"tags"`
}

// tagsVersion is the version of the tags file Cairn reads and writes.
const tagsVersion = 1

// EncodeTags is the content of a tags file holding tags.
func EncodeTags(tags backend.Tags) ([]byte, error) {
	return json.Marshal(tagsFile{Version: tagsVersion, Tags: tags})
}

// DecodeTags reads the content of a tags file.
func DecodeTags(data []byte) (backend.Tags, error) {
	var f tagsFile
	err := json.Unmarshal(data, &f)
	if err == nil && f.Version != tagsVersion {
		err = fmt.Errorf("version %d, where Cairn reads version %d", f.Version, tagsVersion)
	}
	if err != nil {
		return nil, err
	}
	if f.Tags == nil {
		f.Tags = backend.Tags{}
	}
	return f.Tags, nil
}

// ZstdSuffix ends the name of a state Pulumi wrote compressed with zstd
// (PULUMI_DIY_BACKEND_ZSTD), which Cairn does not read.
const ZstdSuffix = ".zst"

// Decode returns the content of a state, backup or history record named
// name: decompressed when the name ends in GzipSuffix, refused with advice
// when it ends in ZstdSuffix.
func Decode(name string, data []byte) ([]byte, error) {
	switch {
	case strings.HasSuffix(name, ZstdSuffix):
		return nil, fmt.Errorf("%s is compressed with zstd (Pulumi's PULUMI_DIY_BACKEND_ZSTD), which Cairn does not read; "+
			"have pulumi write it uncompressed or with gzip (PULUMI_DIY_BACKEND_GZIP=true): "+
			"`pulumi stack export --file s.json && pulumi stack import --file s.json` without PULUMI_DIY_BACKEND_ZSTD", name)
	case !strings.HasSuffix(name, GzipSuffix):
		return data, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err == nil {
		data, err = io.ReadAll(r)
	}
	if err != nil {
		return nil, fmt.Errorf("decompressing %s: %w", name, err)
	}
	return data, nil
}

// Gzip compresses data as Pulumi's DIY backend does.
func Gzip(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := z.Write(data); err != nil {
		return nil, err
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
