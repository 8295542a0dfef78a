package deploy

import (
	"context"
	"errors"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// ImportSpec names an existing resource to bring under management.
type ImportSpec struct {
	Type     string
	Name     string
	ID       resource.ID
	Parent   resource.URN // default: the root stack
	Provider string       // provider reference; default: the package's default provider
	Version  string
	Protect  bool
}

// Import adopts existing resources by ID, as `cairn import` does: each is read
// from its provider and recorded with the inputs the provider reports, so the
// next update sees no difference. The rest of the stack is left as it is.
func Import(ctx context.Context, opts Options, base *snapshot.Snapshot, specs []ImportSpec) (*Result, error) {
	if len(specs) == 0 {
		return nil, errors.New("nothing to import")
	}
	opts.Program = ProgramFunc(func(ctx context.Context, info RunInfo) error {
		root, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: resource.RootStackType, Name: info.Project + "-" + info.Stack})
		if err != nil {
			return err
		}
		var errs []error
		for _, s := range specs {
			parent := s.Parent
			if parent == "" {
				parent = root.URN
			}
			_, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: s.Type, Name: s.Name, Custom: true, Parent: parent,
				Provider: s.Provider, Version: s.Version, ImportID: s.ID, Protect: &s.Protect, Properties: resource.Map{}})
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
	d, err := newDeployment(&opts, base, snapshot.KeepPendingCreates)
	if err != nil {
		return nil, err
	}
	d.keepUnregistered, d.adoptImports = true, true
	return d.do(ctx, func(ctx context.Context) error { return d.runProgram(ctx, opts.Program) })
}
