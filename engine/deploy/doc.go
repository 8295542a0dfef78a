// Package deploy is Cairn's deployment engine: the resource monitor, the step
// generator and the step executor of Pulumi's engine design, the provider
// registry, and the operations built on them (Update, which previews when
// DryRun is set; Refresh; Destroy; Import).
//
// A deployment starts from a base snapshot.Snapshot. The program (a YAML or HCL
// evaluation, or a language host) calls the Monitor; every RegisterResource
// call runs on its own goroutine: it resolves the goal (parent, inherited
// options, provider, URN, aliases), generates the chain of steps (Check, Diff,
// then same, create, update or replace), and executes the chain. Provider
// calls take a slot of a pool bounded by Options.Parallel, so Check and Diff
// of unrelated resources run concurrently and step generation is never the
// serial bottleneck Pulumi's is. When the program has finished, the
// resources it no longer declares are deleted in reverse dependency order,
// antichain by antichain.
//
// The fast path: when a custom resource's program inputs (before Check),
// the options that reach Check and Diff, and its provider (package, plugin
// and configuration) hash to the digest recorded with its state at its
// last successful step, and the state is still the one that step wrote
// (same ID, inputs and outputs, so a refresh that found drift or an edit of
// the state breaks the match), the answers of Check and Diff are known: the
// resource gets a same step and neither is called (resource.State.Digest).
// A provider resource takes it the same way, skipping CheckConfig and
// DiffConfig. It is taken only for the providers trusted to answer the
// same requests the same way: those that declare so
// (provider.PluginInfo.InputsOnly: Cairn's own) and those of the packages
// Options.FastPathPackages lists (all with Options.FastPathAll); the
// others are called, and Result.Untrusted counts what they could have
// skipped. It is off with Options.NoFastPath (the CLI's --no-fast-path and
// --refresh), for resources with a pending operation, a taint, an import
// ID, a replacement trigger, replaceWith or deletedWith, or a --replace
// target, for the pulumi package (whose stack references answer with
// another stack's outputs), for resources whose inputs, outputs or
// provider configuration hold unknowns, and for providers that cannot
// say which implementation they are (no version). A digest that covers a
// secret is stored as an HMAC keyed by a key derived from the stack's
// seed key (which the state keeps encrypted), so that it cannot be checked
// against guesses of the secret by anyone who cannot decrypt the state.
//
// A provider is loaded (its plugin started) only when a call needs it, and
// configured before its first call on resources or functions; a host that
// identifies providers without loading them (provider.IdentifyHost) lets
// the fast path decide without loading anything, so that an update in
// which every resource of a package takes it never starts that package's
// plugin.
//
// A remote component (RegisterRequest.Remote) has no steps: its provider's
// Construct registers it and its children on the monitor that
// Options.ServeMonitor serves. A resource the program forgets
// (Monitor.Forget, or ForgetComponent for a component of any type) leaves
// the state by a discard step with what is under it, its provider not
// called. The random seeds given to Check are HMACs, keyed by a secret the
// snapshot keeps (snapshot.Seeds), of the deployment's generation and the
// URN; Options.OpenSeedKey decrypts the stored key when a seed is first
// derived.
//
// Every change to the stack is a snapshot.JournalEntry: a begin entry before a
// provider is asked to change anything, an end entry after. The current
// snapshot is the base snapshot with the entries applied (snapshot.Builder),
// which is also how a backend replays the journal of a process that died. A
// snapshot.Journal passed in Options makes entries durable.
//
// Cancelling the context of an operation interrupts it: no step starts any
// more (those waiting for a worker are reported skipped), while the steps in
// flight finish and are recorded. Closing Options.Terminate then signals the
// providers to stop those steps; a step that fails after that keeps its begin
// entry and stays a pending operation, as after a crash. An update whose
// program declares nothing while the stack has resources is refused unless
// Options.AllowEmpty.
//
//	res, err := deploy.Update(ctx, deploy.Options{
//		Project: "proj", Stack: "dev", Host: providers, Program: prog,
//		Journal: journal, Events: display.Handle,
//	}, base)
package deploy
