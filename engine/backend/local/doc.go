// Package local is the embedded default backend: stacks kept in a directory
// (file://DIR; Cairn's default is file://$CAIRN_HOME/state) in Pulumi's
// DIY layout, so the directory feels familiar and `pulumi` can read it.
//
//	DIR/.pulumi/meta.yaml                                   layout version 1
//	DIR/.pulumi/stacks/<project>/<stack>.json[.gz]          the state (a checkpoint)
//	DIR/.pulumi/stacks/<project>/<stack>.pulumi-tags        the stack's tags
//	DIR/.pulumi/journals/<project>/<stack>.journal          the running operation's journal
//	DIR/.pulumi/backups/<project>/<stack>/<stack>.<ns>.json the state before each operation
//	DIR/.pulumi/history/<project>/<stack>/<stack>-<ns>.history.json
//	DIR/.pulumi/locks/organization/<project>/<stack>/cairn.json
//
// The state is gzip-compressed (<stack>.json.gz) when Options.Gzip says so,
// as Pulumi's is with PULUMI_DIY_BACKEND_GZIP; compressed states, backups
// and history records that Pulumi wrote are read.
//
// While an operation runs, only its journal grows: one line per step begin
// and end, holding the resource touched, appended with group commit (one
// writer goroutine writes whatever is queued with one write and one fsync).
// Finish writes the state once, atomically (temporary file, fsync, rename),
// after hard-linking the previous state into the backups, then removes the
// journal and appends a history record. A journal left by a process that
// died is replayed by every read and compacted by the next operation.
//
// A stack's lock is a file created complete or not at all, which its holder
// keeps flocked; a second operation fails at once with a
// *backend.LockedError naming the holder's pid, host and start time. A lock
// of this host that no live process holds flocked is broken with a warning;
// `cairn stack unlock` refuses to break one that is held. The running
// operation keeps its journal flocked too, so that even if the lock file is
// removed by hand no other process recovers the journal of a live
// operation. (Where there is no flock, only `cairn stack unlock` breaks
// locks.)
//
//	warn := func(msg string) { fmt.Fprintln(os.Stderr, "warning:", msg) }
//	b, err := local.Open("file://~/.cairn/state", local.Options{Warn: warn})
//	err = b.CreateStack(ctx, backend.StackRef{Project: "proj", Name: "dev"}, nil, nil)
//	stacks, err := b.ListStacks(ctx, "proj")
package local
