// Package backend declares where stacks are kept: the Backend interface the
// CLI uses to create, list and remove stacks, take a stack's lock, load its
// state, run an operation whose journal makes every step durable, export and
// import its deployment, read its outputs and its history. Nothing above a
// backend assumes a file system: the local backend (package local, the
// default, file://DIR) keeps stacks in files, and a database backend can
// implement the same interface.
//
// An operation, as `cairn up` runs it:
//
//	lock, err := b.Lock(ctx, ref) // fails at once if another process holds it
//	if err != nil {
//		return err // a *backend.LockedError names the holder
//	}
//	defer lock.Release()
//	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate, Secrets: sm})
//	if err != nil {
//		return err
//	}
//	res, err := deploy.Update(ctx, deploy.Options{Journal: op.Journal() /* … */}, op.Base())
//	sum, snap := backend.Summary{Err: err}, (*snapshot.Snapshot)(nil)
//	if res != nil {
//		sum.Changes, snap = res.ResourceChanges(), res.Snapshot
//	}
//	if ferr := op.Finish(ctx, snap, sum); ferr != nil {
//		return errors.Join(err, ferr)
//	}
//	return err
//
// If the process dies before Finish, the journal stays behind; the next
// Snapshot, Outputs or Export replays it, and the next Begin compacts it into
// the stack's state: completed steps are kept and interrupted ones become
// pending operations.
package backend
