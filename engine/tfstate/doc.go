// Package tfstate moves Terraform's state into Cairn's: it reads state
// files of format version 4 (Read), the one Terraform 0.12 and later and
// OpenTofu write, and builds the snapshot of a stack that holds their
// resources where the program declares them (Build), so that the program
// then finds them unchanged:
//
//	st, err := tfstate.Read(data)
//	snap, err := tfstate.Build(st, tfstate.Target{Planned: preview.Snapshot, Schema: schemaOf, NewID: newID})
//	// snap goes through the backend's import, as `cairn stack import` does.
//
// It also says how Cairn keeps what Terraform keeps beside a resource's
// attributes (Meta, under MetaKey), for the providers that serve Terraform
// providers' resources.
package tfstate
