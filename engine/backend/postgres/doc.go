// Package postgres is the team backend: stacks kept in a PostgreSQL
// database (postgres://user:password@host:port/db?sslmode=…), behind the
// same backend.Backend interface as the local backend, with the same
// behaviour.
//
// What is written where:
//
//   - cairn_states holds every state a stack had, as a Pulumi checkpoint
//     (each row a backup, numbered by the version of the operation that
//     wrote it); cairn_stacks names each stack's current state, so writing
//     a state is one insert and one update, never a copy.
//   - cairn_history holds one record per operation, cairn_operations the
//     header of an operation's journal and cairn_journal its entries,
//     appended by group commit (one insert per batch of lines), so the
//     bytes a step writes depend on the resource it touches. Finish writes
//     the state, its history record and removes the journal in one
//     transaction; a journal left by a process that died is replayed by the
//     next reader and compacted by the next operation.
//   - cairn_tags holds the stacks' tags.
//   - A stack's lock is a row of cairn_locks naming its holder plus a
//     session-level advisory lock held by the connection the operation
//     writes on: when the holder dies or loses its connection, the lock is
//     free at once, on any machine, and the dead holder can write nothing
//     more.
//
// The schema is created and migrated by Open (cairn_schema records the
// migrations applied); a database migrated by a newer Cairn is refused.
package postgres
