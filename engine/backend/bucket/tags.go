package bucket

import (
	"context"
	"fmt"

	"gocloud.dev/gcerrors"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// Tags implements backend.Backend: they are kept in a JSON object of their
// own, which Pulumi's DIY backend does not have.
func (b *Backend) Tags(ctx context.Context, ref backend.StackRef) (backend.Tags, error) {
	if err := b.existing(ctx, ref); err != nil {
		return nil, err
	}
	return b.readTags(ctx, ref)
}

// existing fails unless the stack exists.
func (b *Backend) existing(ctx context.Context, ref backend.StackRef) error {
	exists, err := b.StackExists(ctx, ref)
	if err == nil && !exists {
		err = fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	}
	return err
}

func (b *Backend) readTags(ctx context.Context, ref backend.StackRef) (backend.Tags, error) {
	data, err := b.read(ctx, diy.Tags(ref))
	if gcerrors.Code(err) == gcerrors.NotFound {
		return backend.Tags{}, nil
	}
	var tags backend.Tags
	if err == nil {
		tags, err = diy.DecodeTags(data)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the tags of stack %s: %w", ref, err)
	}
	return tags, nil
}

// SetTags implements backend.Backend.
func (b *Backend) SetTags(ctx context.Context, ref backend.StackRef, tags backend.Tags) error {
	if err := b.existing(ctx, ref); err != nil {
		return err
	}
	return b.writeTags(ctx, ref, tags)
}

func (b *Backend) writeTags(ctx context.Context, ref backend.StackRef, tags backend.Tags) error {
	for name, value := range tags {
		if err := backend.ValidateTag(name, value); err != nil {
			return err
		}
	}
	if len(tags) == 0 {
		return b.remove(ctx, diy.Tags(ref))
	}
	data, err := diy.EncodeTags(tags)
	if err != nil {
		return err
	}
	if err := b.write(ctx, diy.Tags(ref), data, false); err != nil {
		return fmt.Errorf("writing the tags of stack %s: %w", ref, err)
	}
	return nil
}
