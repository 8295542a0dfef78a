package backend

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// CheckImport reads a deployment to import into ref. Unless opts.Force it
// refuses one that fails the integrity checks or holds resources of another
// stack; with it, each problem is a warning. The deployment's pending
// operations are dropped with a warning, as Pulumi's `stack import` does.
func CheckImport(ref StackRef, u *state.UntypedDeployment, opts ImportOptions, warn func(string)) (*snapshot.Snapshot, error) {
	d, err := state.ParseUntypedDeployment(u)
	if err != nil {
		return nil, err
	}
	var problems []string
	if err := state.CheckManifest(d.Manifest); err != nil {
		problems = append(problems, err.Error())
		d.Manifest.Magic = state.Magic(d.Manifest.Version) // written anew anyway
	}
	snap, err := state.NewDecoder(opts.Secrets).Deployment(d)
	if err != nil {
		return nil, fmt.Errorf("reading the deployment to import: %w", err)
	}
	for _, r := range snap.Resources {
		if p := r.URN.Project(); p != ref.Project {
			problems = append(problems, fmt.Sprintf("resource %s belongs to project %q, not %q: the next update of stack %s would delete it",
				r.URN, p, ref.Project, ref))
		} else if r.URN.Stack() != ref.Name {
			problems = append(problems, fmt.Sprintf("resource %s is from stack %q, not %q", r.URN, r.URN.Stack(), ref.Name))
		}
	}
	if err := snap.VerifyIntegrity(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 && !opts.Force {
		return nil, fmt.Errorf("the deployment to import is not valid:\n  %s\nimporting it could be dangerous; rerun with --force to import it anyway",
			strings.Join(problems, "\n  "))
	}
	for _, p := range problems {
		warn("importing anyway (--force): " + p)
	}
	for _, op := range snap.PendingOperations {
		warn(fmt.Sprintf("removing pending operation '%s' on '%s' from the imported state", op.Type, op.Resource.URN))
	}
	snap.PendingOperations = nil
	return snap, nil
}
