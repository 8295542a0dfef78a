package backend

import (
	"context"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// Backend keeps stacks: their state, lock and history. Every method names
// its stack; which stack is selected is the CLI's concern. Methods that read
// or write secrets take the stack's secrets manager, which may be nil for a
// stack without secrets.
type Backend interface {
	// URL says where the backend keeps its stacks ("file:///home/me/.cairn/state").
	URL() string

	// CreateStack creates a stack whose state is init, its secrets (such as
	// the seed key) sealed with sm, or with no state when init is nil; it
	// fails with ErrStackExists if the stack exists.
	CreateStack(ctx context.Context, ref StackRef, init *snapshot.Snapshot, sm secrets.Manager) error
	// StackExists reports whether the stack exists, without reading its state.
	StackExists(ctx context.Context, ref StackRef) (bool, error)
	// ListStacks lists the stacks of project, or of every project when
	// project is "", ordered by project and name.
	ListStacks(ctx context.Context, project string) ([]StackSummary, error)
	// RemoveStack removes a stack and its history, under the stack's lock. It
	// refuses, with *StackNotEmptyError, a stack that still has resources or
	// pending operations unless opts.Force. The states the stack had are
	// kept, for Restore, unless opts.Purge; with Purge, a stack removed
	// earlier has what its removal kept removed.
	RemoveStack(ctx context.Context, ref StackRef, opts RemoveOptions) (Removed, error)

	// RenameStack gives a stack another name in its project, under its lock,
	// with its history and backups; the URNs in its state follow, and the
	// rename is recorded in its history. It fails with ErrStackExists if a
	// stack has the name, and refuses a stack whose last operation did not
	// finish.
	RenameStack(ctx context.Context, ref StackRef, name string) error

	// Tags returns the stack's tags.
	Tags(ctx context.Context, ref StackRef) (Tags, error)
	// SetTags replaces the stack's tags, which must pass ValidateTag.
	SetTags(ctx context.Context, ref StackRef, tags Tags) error

	// Lock takes the stack's lock for one or more operations. If another
	// process holds it, Lock fails at once with *LockedError naming the
	// holder; a lock that no live process holds is broken, with a warning.
	Lock(ctx context.Context, ref StackRef) (Lock, error)
	// Unlock breaks the stack's lock (`cairn stack unlock`) and returns what
	// the lock said, or nil if the stack was not locked. It refuses to break
	// a lock that it can tell a live process holds.
	Unlock(ctx context.Context, ref StackRef) (*LockInfo, error)

	// Snapshot returns the stack's state, with the journal of an operation
	// that did not finish replayed over it: its completed steps kept, its
	// interrupted ones as pending operations. It changes nothing.
	Snapshot(ctx context.Context, ref StackRef, sm secrets.Manager) (*snapshot.Snapshot, error)
	// Outputs returns the outputs of the stack's root resource (type
	// pulumi:pulumi:Stack), for `stack output` and stack references; nil
	// when the stack has no root resource.
	Outputs(ctx context.Context, ref StackRef, sm secrets.Manager) (resource.Map, error)
	// Export returns the stack's state in the export form.
	Export(ctx context.Context, ref StackRef, opts ExportOptions) (*state.UntypedDeployment, error)
	// Import replaces the stack's state with a deployment, under the stack's
	// lock. Unless opts.Force it refuses a deployment that fails the
	// integrity checks or holds resources of another stack; it drops the
	// deployment's pending operations with a warning, as Pulumi does.
	Import(ctx context.Context, ref StackRef, d *state.UntypedDeployment, opts ImportOptions) error
	// History returns one record per operation on the stack, newest first.
	History(ctx context.Context, ref StackRef) ([]HistoryRecord, error)
	// PruneHistory removes, under the stack's lock, the stack's operations
	// but the newest opts.Keep from its history, the states they wrote and
	// the states kept before them. It never removes the current state.
	PruneHistory(ctx context.Context, ref StackRef, opts PruneOptions) (Pruned, error)
	// Restore makes a backup the stack's state, under the stack's lock, and
	// records that in the history: the state written by operation version
	// (as History numbers them), or for version 0 the newest backup that can
	// be read. It returns the version restored (0 for a backup kept without
	// an operation). It works on a stack whose state is missing or cannot
	// be read, and on a removed stack whose backups were kept.
	Restore(ctx context.Context, ref StackRef, version int) (int, error)
}

// Lock is a stack's lock, held until Release.
type Lock interface {
	// Info says who holds the lock: this process.
	Info() LockInfo
	// Begin starts an operation on the stack. If the previous operation
	// did not finish, its journal is first compacted into the stack's state,
	// with a warning.
	Begin(ctx context.Context, info OperationInfo) (Operation, error)
	// Release gives the lock up. An unfinished operation's journal stays,
	// to be recovered by the next one.
	Release() error
}

// Operation is one run of the engine on a stack. During the operation only
// its journal grows; the state is written once, by Finish.
type Operation interface {
	// Base is the state the operation starts from. Pass it to the engine:
	// the journal names its resources by their index in it.
	Base() *snapshot.Snapshot
	// Journal is where the engine appends the operation's entries
	// (deploy.Options.Journal). Append returns once its entry is durable.
	Journal() snapshot.Journal
	// Finish ends the operation: it writes snap as the stack's state (nil
	// means the journal replayed over Base, for when the engine returned no
	// snapshot), keeps a backup of the previous state, removes the journal
	// and records the operation in the stack's history.
	Finish(ctx context.Context, snap *snapshot.Snapshot, sum Summary) error
}

// OperationInfo describes an operation as it begins.
type OperationInfo struct {
	Kind    OperationKind
	Message string // an optional description, kept in the history
	// Secrets encrypts the operation's secrets in its journal and in the
	// state Finish writes.
	Secrets secrets.Manager
	// Masker masks the secrets it knows in what the history keeps of the
	// operation (its message and error); nil keeps them as they are.
	Masker *secrets.Masker
}

// Summary says how an operation ended.
type Summary struct {
	Err     error          // nil when the operation succeeded
	Changes map[string]int // steps by kind, as deploy.Result.ResourceChanges
	// Violations are the policy violations the operation found.
	Violations []policy.Violation
}

// ExportOptions say how a stack's state is exported.
type ExportOptions struct {
	Secrets secrets.Manager
	// ShowSecrets writes secrets as plaintext ({sig, plaintext}).
	ShowSecrets bool
}

// ImportOptions say how a deployment is imported.
type ImportOptions struct {
	// Secrets decrypts the deployment's secrets (using the passphrase with
	// the deployment's own salt when it differs) and encrypts them in the
	// stack's state.
	Secrets secrets.Manager
	// Force imports a deployment that fails the checks, with warnings.
	Force bool
}
