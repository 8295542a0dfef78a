package backend

import (
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// RootOutputs returns a copy of the outputs of a state's root resource
// (type pulumi:pulumi:Stack), or nil when it has none.
func RootOutputs(snap *snapshot.Snapshot) resource.Map {
	if root := snap.Root(); root != nil {
		return root.Outputs.Copy()
	}
	return nil
}
