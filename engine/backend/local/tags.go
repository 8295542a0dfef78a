package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/cairn-iac/cairn/engine/backend"
)

// Tags implements backend.Backend: they are kept in Pulumi's tags file,
// so that `pulumi stack tag ls` shows them, and the reverse.
func (b *Backend) Tags(ctx context.Context, ref backend.StackRef) (backend.Tags, error) {
	if _, err := b.statStack(ref); err != nil {
		return nil, err
	}
	return b.readTags(ref)
}

// tagsFile is the content of Pulumi's tags file.
type tagsFile struct {
	Version int          `json:"version"`
	Tags    backend.Tags `json:"tags"`
}

// tagsVersion is the version of the tags file Cairn reads and writes.
const tagsVersion = 1

func (b *Backend) readTags(ref backend.StackRef) (backend.Tags, error) {
	path := b.layout.tags(ref)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return b.readOldTags(ref)
	}
	var f tagsFile
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err == nil && f.Version != tagsVersion {
		err = fmt.Errorf("version %d, where Cairn reads version %d", f.Version, tagsVersion)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the tags of stack %s (%s): %w", ref, path, err)
	}
	if f.Tags == nil {
		f.Tags = backend.Tags{}
	}
	return f.Tags, nil
}

// readOldTags reads the tags where Cairn kept them before it used
// Pulumi's file: a JSON object of their own.
func (b *Backend) readOldTags(ref backend.StackRef) (backend.Tags, error) {
	tags := backend.Tags{}
	data, err := os.ReadFile(b.layout.oldTags(ref))
	if errors.Is(err, fs.ErrNotExist) {
		return tags, nil
	}
	if err == nil {
		err = json.Unmarshal(data, &tags)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the tags of stack %s: %w", ref, err)
	}
	return tags, nil
}

// SetTags implements backend.Backend.
func (b *Backend) SetTags(ctx context.Context, ref backend.StackRef, tags backend.Tags) error {
	if _, err := b.statStack(ref); err != nil {
		return err
	}
	return b.writeTags(ref, tags)
}

func (b *Backend) writeTags(ref backend.StackRef, tags backend.Tags) error {
	for name, value := range tags {
		if err := backend.ValidateTag(name, value); err != nil {
			return err
		}
	}
	if len(tags) == 0 {
		if err := os.Remove(b.layout.tags(ref)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	} else {
		data, err := json.Marshal(tagsFile{Version: tagsVersion, Tags: tags})
		if err == nil {
			err = writeFileAtomic(b.layout.tags(ref), data)
		}
		if err != nil {
			return fmt.Errorf("writing the tags of stack %s: %w", ref, err)
		}
	}
	if err := os.Remove(b.layout.oldTags(ref)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
