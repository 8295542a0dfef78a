package deploy

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
)

// refuseEmpty refuses, unless Options.AllowEmpty, an update whose program
// declared no resources while the stack has some: such a program is more
// likely broken (a wrong folder, a truncated file) than meant to delete
// everything, which is what destroy is for. The stack's root resource and
// default providers are not declared by the program, and resources it only
// read are not deleted, so they do not count; a program that forgets
// resources is not empty.
func (d *deployment) refuseEmpty() error {
	if d.opts.AllowEmpty {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.forgotten) > 0 {
		return nil // the program says what to do with the stack's resources
	}
	for urn := range d.records {
		if declared(urn) {
			return nil
		}
	}
	n := 0
	for _, r := range d.base.Resources {
		if !r.Delete && !r.External && declared(r.URN) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("the program declares no resources, but the stack has %d: the update would delete every one, so nothing was changed; "+
		"to delete a stack's resources run `cairn destroy`, or pass --allow-empty if the empty program is meant", n)
}

// declared reports whether a resource is one a program declares: not the
// stack's root resource nor a default provider.
func declared(urn resource.URN) bool {
	if urn.Type() == resource.RootStackType {
		return false
	}
	name := urn.Name()
	return !resource.IsProviderType(urn.Type()) || (name != "default" && !strings.HasPrefix(name, "default_"))
}
