package local

import (
	"context"
	"errors"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/state"
)

// Export implements backend.Backend.
func (b *Backend) Export(ctx context.Context, ref backend.StackRef, opts backend.ExportOptions) (*state.UntypedDeployment, error) {
	s, err := b.read(ref)
	if err != nil {
		return nil, err
	}
	return s.shared().Export(b.opts.Encoder(opts.Secrets, opts.ShowSecrets), opts)
}

// Import implements backend.Backend.
func (b *Backend) Import(ctx context.Context, ref backend.StackRef, u *state.UntypedDeployment, opts backend.ImportOptions) error {
	snap, err := backend.CheckImport(ref, u, opts, func(msg string) { b.opts.Warnf("%s", msg) })
	if err != nil {
		return err
	}

	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return err
	}
	s, err := b.read(ref)
	if err == nil {
		_, _, err = b.recover(s, opts.Secrets)
	}
	if err != nil && opts.Force && b.checkJournalIdle(ref) == nil {
		b.opts.Warnf("importing anyway (--force) over the current state, which cannot be read: %s", err)
		err = nil
	}
	if err == nil {
		_, err = b.commit(ref, snap, opts.Secrets, backend.ImportRecord(""))
	}
	return errors.Join(err, lock.Release())
}
