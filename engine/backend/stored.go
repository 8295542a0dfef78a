package backend

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// StackOutputs returns the outputs of the stack's root resource (type
// pulumi:pulumi:Stack), or nil when it has none: Backend.Outputs for any
// backend.
func StackOutputs(ctx context.Context, b Backend, ref StackRef, sm secrets.Manager) (resource.Map, error) {
	snap, err := b.Snapshot(ctx, ref, sm)
	if err != nil {
		return nil, err
	}
	if root := snap.Root(); root != nil {
		return root.Outputs.Copy(), nil
	}
	return nil, nil
}

// Stored is a stack's state as a backend keeps it, for the logic every
// backend shares.
type Stored struct {
	Ref StackRef
	// Data is the stack's state, a Pulumi checkpoint.
	Data []byte
	// Unfinished is set when the journal of an operation that did not
	// finish applies to Data.
	Unfinished bool
	// Current decodes Data with the journal, if any, replayed over it.
	Current func(sm secrets.Manager) (*snapshot.Snapshot, error)
	// Unreadable says why Data cannot be read, and what to do.
	Unreadable func(err error) error
}

// Export returns the stored state in the export form. Unless secrets are
// shown or a journal must be replayed, the stored deployment is exported
// as it is, and needs no secrets manager.
func (s *Stored) Export(enc *state.Encoder, opts ExportOptions) (*state.UntypedDeployment, error) {
	if !s.Unfinished && !opts.ShowSecrets {
		u, err := state.ExportCheckpoint(s.Data)
		if err != nil {
			return nil, s.Unreadable(err)
		}
		if u != nil {
			return u, nil
		}
	}
	current, err := s.Current(opts.Secrets)
	if err != nil {
		return nil, err
	}
	return enc.UntypedDeployment(current)
}

// CheckEmpty fails, with *StackNotEmptyError, for a stack that still has
// resources or pending operations, or an unfinished operation's journal.
func (s *Stored) CheckEmpty() error {
	if s.Unfinished {
		return &StackNotEmptyError{Stack: s.Ref, Unfinished: true}
	}
	chk, err := state.ParseCheckpoint(s.Data)
	if err != nil {
		return s.Unreadable(err)
	}
	if d := chk.Latest; d != nil && len(d.Resources)+len(d.PendingOperations) > 0 {
		return &StackNotEmptyError{Stack: s.Ref, Resources: len(d.Resources), PendingOperations: len(d.PendingOperations)}
	}
	return nil
}

// Renamed returns the stored state as that of stack to (RenameCheckpoint),
// refusing a state with an unfinished operation's journal.
func (s *Stored) Renamed(to StackRef) ([]byte, error) {
	if s.Unfinished {
		return nil, UnfinishedError(s.Ref)
	}
	return RenameCheckpoint(s.Data, s.Ref, to)
}

// FinishErrors are the problems of an operation whose state was written:
// its journal failed during the operation (journalErr), or the state is
// invalid, in which case restore says how to get the previous one back.
func FinishErrors(ref StackRef, snap *snapshot.Snapshot, journalErr error, restore string) error {
	var errs []error
	if journalErr != nil {
		errs = append(errs, fmt.Errorf("the journal failed during the operation, so it was not safe from a crash (the state is written): %w", journalErr))
	}
	if err := snap.VerifyIntegrity(); err != nil {
		errs = append(errs, fmt.Errorf("the state of stack %s was written but is invalid: %w; %s", ref, err, restore))
	}
	return errors.Join(errs...)
}
