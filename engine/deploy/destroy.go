package deploy

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Destroy deletes every resource of the stack (or, with targets, the targeted
// ones) in reverse dependency order, honouring protect and retainOnDelete.
func Destroy(ctx context.Context, opts Options, base *snapshot.Snapshot) (*Result, error) {
	d, err := newDeployment(&opts, base, snapshot.KeepPendingCreates)
	if err != nil {
		return nil, err
	}
	return d.do(ctx, d.destroy)
}

func (d *deployment) destroy(ctx context.Context) error {
	d.warnPending()
	var victims []*resource.State
	chosen := map[resource.URN]bool{}
	for _, r := range d.base.Resources {
		if d.targets.active() && !d.targets.include(r.URN, r.References()) && !r.Delete {
			continue
		}
		if d.targets.active() && isInfrastructure(r.URN) && !r.Delete {
			continue // providers and the stack stay while anything else does
		}
		victims = append(victims, r)
		chosen[r.URN] = true
	}
	if d.targets.active() {
		// A targeted resource cannot go while something that stays depends on it.
		var blocked []string
		for _, r := range d.base.Resources {
			if chosen[r.URN] {
				continue
			}
			for _, u := range r.References() {
				if chosen[u] {
					blocked = append(blocked, fmt.Sprintf("%s depends on %s", r.URN, u))
				}
			}
		}
		if len(blocked) > 0 {
			sort.Strings(blocked)
			return fmt.Errorf("cannot destroy the targeted resources while other resources depend on them (target those too, or add --target-dependents):\n  %s", strings.Join(blocked, "\n  "))
		}
	}
	return d.runDeletes(ctx, victims)
}
