// Package bucket is the backend that keeps stacks in an object storage
// bucket: Amazon S3 (s3://BUCKET[/PREFIX]), Google Cloud Storage
// (gs://BUCKET[/PREFIX]) or Azure Blob Storage (azblob://CONTAINER[/PREFIX]),
// through gocloud.dev/blob, as Pulumi's DIY backend does, and in the same
// layout (package diy), so that `pulumi login s3://…` and Cairn can take
// turns on one bucket.
//
// While an operation runs, the state object is not rewritten: each batch of
// journal entries (group commit) is one new object in the stack's journal
// folder, so a step costs a PUT of the resource it touched, not of the
// whole state. Finish writes the state once, keeps it as a backup, removes
// the journal and records the operation in the history. A journal left by a
// process that died is replayed by every read and compacted by the next
// operation; until then the state object is the valid checkpoint the
// operation began from, and the lock object, left behind, keeps Pulumi off
// the stack.
//
// A stack's lock is Cairn's lock object among Pulumi's lock files, created
// with a conditional write (S3 If-None-Match: *, GCS ifGenerationMatch=0,
// Azure If-None-Match: *), so that of two processes exactly one gets it.
//
//	b, err := bucket.Open(ctx, "s3://team-state/cairn?region=eu-west-1", bucket.Options{})
//	stacks, err := b.ListStacks(ctx, "proj")
package bucket
