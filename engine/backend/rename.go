package backend

import (
	"bytes"
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/state"
)

// RenameCheckpoint rewrites a checkpoint of stack from as one of stack to
// (same project, another name): every URN of the stack's resources, as a
// resource's own, its parent's, dependencies, provider references and any
// string output that is such a URN, and the checkpoint's stack name. The
// URNs of other stacks, and secrets (ciphertext), are left alone. The root
// resource is renamed too, as Pulumi names it <project>-<stack>.
func RenameCheckpoint(data []byte, from, to StackRef) ([]byte, error) {
	if from.Project != to.Project {
		return nil, fmt.Errorf("stack %s cannot be renamed to %s: a stack stays in its project", from, to)
	}
	urn := func(r StackRef) []byte { return []byte(`"urn:pulumi:` + r.Name + "::" + r.Project + "::") }
	qualified := func(r StackRef) []byte { return []byte(`"` + r.Qualified() + `"`) }
	root := func(r StackRef) []byte {
		return []byte(`"urn:pulumi:` + to.Name + "::" + r.Project + "::" + string(resource.RootStackType) + "::" + r.Project + "-" + r.Name + `"`)
	}
	out := bytes.ReplaceAll(data, urn(from), urn(to))
	out = bytes.ReplaceAll(out, root(from), root(to))
	out = bytes.ReplaceAll(out, qualified(from), qualified(to))
	if _, err := state.ParseCheckpoint(out); err != nil {
		return nil, fmt.Errorf("renaming the state of stack %s: %w", from, err)
	}
	return out, nil
}

// RenameTarget names the stack that ref becomes when renamed to name,
// checking that no stack of b has that name.
func RenameTarget(ctx context.Context, b Backend, ref StackRef, name string) (StackRef, error) {
	to := StackRef{Project: ref.Project, Name: name}
	if err := to.Validate(); err != nil {
		return to, err
	}
	exists, err := b.StackExists(ctx, to)
	if err == nil && exists {
		err = fmt.Errorf("stack %s: %w", to, ErrStackExists)
	}
	return to, err
}
