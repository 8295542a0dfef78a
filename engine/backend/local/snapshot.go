package local

import (
	"context"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Snapshot implements backend.Backend.
func (b *Backend) Snapshot(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (*snapshot.Snapshot, error) {
	s, err := b.read(ref)
	if err != nil {
		return nil, err
	}
	return s.snapshot(sm)
}

// Outputs implements backend.Backend.
func (b *Backend) Outputs(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (resource.Map, error) {
	return backend.StackOutputs(ctx, b, ref, sm)
}
