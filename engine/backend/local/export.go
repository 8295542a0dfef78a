package local

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/state"
)

// Export implements backend.Backend. Unless secrets are shown or a journal
// must be replayed, the stored deployment is exported as it is, and needs
// no secrets manager.
func (b *Backend) Export(ctx context.Context, ref backend.StackRef, opts backend.ExportOptions) (*state.UntypedDeployment, error) {
	s, err := b.read(ref)
	if err != nil {
		return nil, err
	}
	if s.journal == nil && !opts.ShowSecrets {
		u, err := state.ExportCheckpoint(s.data)
		if err != nil {
			return nil, b.unreadable(ref, s.path, err)
		}
		if u != nil {
			return u, nil
		}
	}
	current, err := s.snapshot(opts.Secrets)
	if err != nil {
		return nil, err
	}
	return b.encoder(opts.Secrets, opts.ShowSecrets).UntypedDeployment(current)
}

// Import implements backend.Backend.
func (b *Backend) Import(ctx context.Context, ref backend.StackRef, u *state.UntypedDeployment, opts backend.ImportOptions) error {
	d, err := state.ParseUntypedDeployment(u)
	if err != nil {
		return err
	}
	var problems []string
	if err := state.CheckManifest(d.Manifest); err != nil {
		problems = append(problems, err.Error())
		d.Manifest.Magic = state.Magic(d.Manifest.Version) // written anew anyway
	}
	snap, err := state.NewDecoder(opts.Secrets).Deployment(d)
	if err != nil {
		return fmt.Errorf("reading the deployment to import: %w", err)
	}
	for _, r := range snap.Resources {
		if p := r.URN.Project(); p != ref.Project {
			problems = append(problems, fmt.Sprintf("resource %s belongs to project %q, not %q: the next update of stack %s would delete it",
				r.URN, p, ref.Project, ref))
		} else if r.URN.Stack() != ref.Name {
			problems = append(problems, fmt.Sprintf("resource %s is from stack %q, not %q", r.URN, r.URN.Stack(), ref.Name))
		}
	}
	if err := snap.VerifyIntegrity(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 && !opts.Force {
		return fmt.Errorf("the deployment to import is not valid:\n  %s\nimporting it could be dangerous; rerun with --force to import it anyway",
			strings.Join(problems, "\n  "))
	}
	for _, p := range problems {
		b.warn("importing anyway (--force): %s", p)
	}
	for _, op := range snap.PendingOperations {
		b.warn("removing pending operation '%s' on '%s' from the imported state", op.Type, op.Resource.URN)
	}
	snap.PendingOperations = nil

	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return err
	}
	s, err := b.read(ref)
	if err == nil {
		_, _, err = b.recover(s, opts.Secrets)
	}
	if err != nil && opts.Force && b.checkJournalIdle(ref) == nil {
		b.warn("importing anyway (--force) over the current state, which cannot be read: %s", err)
		err = nil
	}
	if err == nil {
		now := time.Now().Unix()
		_, err = b.commit(ref, snap, opts.Secrets, backend.HistoryRecord{Kind: backend.KindImport, StartTime: now, EndTime: now, Result: backend.ResultSucceeded})
	}
	return errors.Join(err, lock.Release())
}
