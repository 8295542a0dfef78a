package deploy

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Forget implements Monitor. The resource (and what is under it) is
// discarded with the deletes that follow the program, in their order, so
// what depends on it goes first.
func (d *deployment) Forget(_ context.Context, urn resource.URN) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, registered := d.records[urn]; registered {
		return fmt.Errorf("cannot forget %s: the program declares it; remove one of the two", urn)
	}
	d.forgotten[urn] = true
	if name := urn.Name(); !strings.Contains(name, "[") {
		for old := range d.olds {
			if old.QualifiedType() != urn.QualifiedType() || !strings.HasPrefix(old.Name(), name+"[") {
				continue
			}
			if _, registered := d.records[old]; registered {
				return fmt.Errorf("cannot forget %s: the program declares it; remove one of the two", old)
			}
			d.forgotten[old] = true
		}
	}
	return nil
}

// ForgetComponent implements Monitor.
func (d *deployment) ForgetComponent(_ context.Context, parent resource.URN, name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for urn, r := range d.olds {
		n := urn.Name()
		if r.Custom || r.Parent != parent || n != name && !strings.HasPrefix(n, name+"[") {
			continue
		}
		if _, registered := d.records[urn]; registered {
			return fmt.Errorf("cannot forget %s: the program declares it; remove one of the two", urn)
		}
		d.forgotten[urn] = true
	}
	return nil
}
