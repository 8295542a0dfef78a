package builtin

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
)

// StackReader reads the outputs of the other stacks of the backend the
// current stack lives in. The CLI implements it over its backend.
type StackReader interface {
	// StackOutputs returns the outputs of the root resource of the stack
	// named name ("<stack>", "<project>/<stack>" or
	// "<organization>/<project>/<stack>"), decrypted, with the values that
	// are secret in the stack's state as resource secrets. A stack that does
	// not exist is an error that wraps ErrStackNotFound; a stack that exists
	// but has no root resource has no outputs (an empty map, no error).
	StackOutputs(ctx context.Context, name string) (resource.Map, error)
}

// StackReaderFunc adapts a function to the StackReader interface.
type StackReaderFunc func(ctx context.Context, name string) (resource.Map, error)

// StackOutputs calls f.
func (f StackReaderFunc) StackOutputs(ctx context.Context, name string) (resource.Map, error) {
	return f(ctx, name)
}

// ErrStackNotFound is wrapped by a StackReader's error for a stack that does
// not exist.
var ErrStackNotFound = errors.New("no such stack")

// stackOutputs is what a stack reference holds: the name, the outputs, and
// which of them are secret.
func (p *Provider) stackOutputs(ctx context.Context, name string) (resource.Map, error) {
	if p.opts.Stacks == nil {
		return nil, fmt.Errorf("cannot read the outputs of stack %q: this deployment was started without access to the backend's stacks", name)
	}
	outputs, err := p.opts.Stacks.StackOutputs(ctx, name)
	switch {
	case errors.Is(err, ErrStackNotFound):
		return nil, fmt.Errorf("stack %q does not exist in this backend: check its name, written \"<stack>\", \"<project>/<stack>\" or \"<organization>/<project>/<stack>\" (`cairn stack ls` lists the stacks): %w", name, err)
	case err != nil:
		return nil, fmt.Errorf("reading the outputs of stack %q: %w", name, err)
	}
	secrets := []resource.Value{}
	for _, k := range outputs.SortedKeys() {
		if outputs[k].ContainsSecrets() {
			secrets = append(secrets, resource.String(k))
		}
	}
	return resource.Map{
		"name":              resource.String(name),
		"outputs":           resource.Object(outputs),
		"secretOutputNames": resource.Array(secrets...),
	}, nil
}
