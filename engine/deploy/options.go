package deploy

import (
	"runtime"

	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Options configure one deployment.
type Options struct {
	Project      string
	Stack        string
	Organization string
	// Config is the stack configuration by "<namespace>:<key>". Default
	// providers take their configuration from the keys of their package.
	Config map[string]resource.Value

	Host    provider.Host
	Program Program          // not used by refresh and destroy
	Journal snapshot.Journal // nil keeps the state in memory only
	Events  func(Event)

	// ServeMonitor serves a monitor over gRPC, for the providers of remote
	// components and methods to register resources on. It is started when
	// first needed and stopped when the deployment finishes; nil means
	// remote components cannot be constructed.
	ServeMonitor func(Monitor) (addr string, stop func(), err error)

	// Parallel bounds the provider operations in flight (creates, reads,
	// updates, deletes and invokes), and separately the checks and diffs, so
	// that a queue of checks never holds back the operations; 0 means
	// 4 × CPUs.
	Parallel int
	// DryRun previews: providers are asked what would happen and nothing changes.
	DryRun bool

	// Terminate, once closed, cancels the provider operations in flight: the
	// providers are signalled to stop them, and those that fail are left
	// pending, since what they did is not known. Cancelling the context an
	// operation runs with only stops it from starting anything new: the
	// operations in flight finish and are recorded.
	Terminate <-chan struct{}

	Targets           []string // URN globs; empty means everything
	TargetDependents  bool
	Excludes          []string // URN globs
	ExcludeDependents bool
	Replaces          []string // URN globs of resources to replace

	// ContinueOnError keeps going after a failed step, skipping only the
	// resources that depend on it.
	ContinueOnError bool
	// NoFastPath makes every registration call its provider's Check and
	// Diff, even when what goes into them is what they were given at the
	// resource's last step (see the package documentation).
	NoFastPath bool
	// FastPathAll makes the fast path trust every provider, and
	// FastPathPackages the providers of the packages listed, besides those
	// it trusts by default: the providers that declare they answer Check
	// and Diff from their requests alone (provider.PluginInfo.InputsOnly,
	// Cairn's own). The calls of a provider it does not trust are made
	// every time; Result.Untrusted counts those it could have skipped.
	FastPathAll      bool
	FastPathPackages []string
	// ExpectNoChanges makes any change an error.
	ExpectNoChanges bool
	// AllowEmpty lets an update whose program declares no resources delete
	// every resource of the stack; without it such an update is refused
	// before anything is deleted.
	AllowEmpty bool
	// ProtectDeclared makes protection refuse the deletion of a resource
	// only while the program still declares it (an instance of it, under
	// any instance keys), as Terraform's prevent_destroy, which lives in
	// the configuration: a resource whose block is gone is deleted.
	ProtectDeclared bool

	// SeedKey is the key random seeds derive from when the base snapshot has
	// none (a new stack); nil makes a random one. Giving a preview and the
	// update after it the same key makes them agree on generated values.
	SeedKey []byte
	// OpenSeedKey decrypts the base snapshot's sealed seed key when a seed
	// is first derived; it returns no key when the key cannot be decrypted
	// for want of a secrets manager.
	OpenSeedKey func(*snapshot.SealedKey) ([]byte, error)

	// Masker, when set, learns the plaintext of every secret the deployment
	// meets (configuration, state, inputs, outputs, invoke results) before
	// reporting anything that could hold it, so that displays and errors
	// can be masked with it. The deployment masks with it what it keeps
	// of provider errors in the state (initErrors).
	Masker *secrets.Masker
	// SealSecret, when set, returns a secret with the ciphertext it will be
	// written to the state as (resource.Value.Ciphertext), encrypting it
	// if it has none under the stack's key. A step's secrets are sealed
	// before the fast path's digest of its state is taken, so that the
	// digest covers their ciphertexts and a later preview can match it
	// without decrypting them (see digestWriter.value).
	SealSecret func(resource.Value) (resource.Value, error)
	// VerifySecrets, when set, checks the stack's secrets key material (a
	// passphrase, deriving its key if nothing has yet). The first step that
	// creates, updates or deletes a resource (and so the first provider
	// Create, Update or Delete) waits for it, and its error fails them all,
	// so that a wrong passphrase changes nothing.
	VerifySecrets func() error

	// Analyzers check every resource after its provider has checked its
	// inputs and before it is diffed, and the whole stack once the program
	// has finished (Pulumi's policy packs).
	Analyzers []policy.Analyzer

	// Plan, when set, is the saved plan an update follows: before a step
	// touches its resource it is compared with the planned one (operation,
	// and inputs equal or within the planned unknowns), and one that
	// diverges fails the resource; a resource the plan does not hold is only
	// left as it is. In a preview the comparison shows, before anything
	// changes, whether the update would follow the plan.
	Plan *plan.Plan

	// ClearPendingCreates makes a refresh drop the pending creates it finds
	// (their resources were never seen to exist); ImportPendingCreates
	// instead adopts the resource of a pending create by the ID given for
	// its URN.
	ClearPendingCreates  bool
	ImportPendingCreates map[resource.URN]resource.ID
}

func (o *Options) parallel() int {
	if o.Parallel > 0 {
		return o.Parallel
	}
	return 4 * runtime.GOMAXPROCS(0)
}

func (o *Options) emit(e Event) {
	if o.Events != nil {
		o.Events(e)
	}
}
