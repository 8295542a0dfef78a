package main

import (
	"context"
	"fmt"
	"os"

	"github.com/google/uuid"
	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/eval"
)

// importTerraform moves a Terraform state (terraform.tfstate, format
// version 4) into the current stack, which must have no resources: a
// preview of the program on an empty stack says what it registers, the
// state's instances take the places of the resources of their names (see
// tfstate.Build), and the snapshot built so goes through the backend's
// import, under the stack's lock, with a backup and a history record.
func importTerraform(c *cli.Context, path string) (err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	st, err := tfstate.Read(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s, err := newSession(c, true)
	if err != nil {
		return err
	}
	if err := s.useStack(); err != nil {
		return err
	}
	if s.project.Runtime != "hcl" {
		return fmt.Errorf("a Terraform state moves into a stack of a Terraform configuration (runtime hcl), and project %s has runtime %s", s.project.Name, s.project.Runtime)
	}
	s.vars = s.commandVars(c)
	r := &operation{s: s, c: c, kind: opPreview, ref: s.ref(s.stack), masker: secrets.NewMasker()}
	defer r.close()
	s.stderr = r.masker.Writer(s.stderr)
	defer func() { err = r.masked(err) }()
	if err := r.prepare(); err != nil {
		return r.failure(opImport, err)
	}
	current, err := r.base()
	if err != nil {
		return err
	}
	if n := len(current.Resources); n > 0 {
		return fmt.Errorf("stack %q has %d resources already; move a Terraform state into a new stack (`cairn stack init NAME`)", s.stack, n)
	}
	planned, err := r.plannedOnEmptyStack(c.Context)
	if err != nil {
		return err
	}
	schemas := eval.ProviderSchemas(r.host)
	snap, err := tfstate.Build(st, tfstate.Target{
		Planned: planned,
		Schema:  func(pkg string) (*schema.Package, error) { return schemas.Schema(c.Context, pkg, "") },
		NewID:   func() resource.ID { return resource.ID(uuid.NewString()) },
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	dep, err := state.NewEncoder(state.EncodeOptions{Secrets: r.secrets}).UntypedDeployment(snap)
	if err != nil {
		return err
	}
	if err := s.backend.Import(c.Context, r.ref, dep, backend.ImportOptions{Secrets: r.secrets}); err != nil {
		return err
	}
	custom := 0
	for _, res := range snap.Resources {
		if res.Custom && !resource.IsProviderType(res.Type) {
			custom++
		}
	}
	fmt.Fprintf(s.stdout, "Imported %d resources and %d outputs of %s (Terraform %s, serial %d) into stack %q.\n"+
		"Run `cairn preview`: the program unchanged should change nothing.\n",
		custom, len(st.Outputs), path, st.TerraformVersion, st.Serial, s.stack)
	return nil
}

// plannedOnEmptyStack previews the program on an empty stack, showing
// nothing, and returns the resources it registers.
func (r *operation) plannedOnEmptyStack(ctx context.Context) (*snapshot.Snapshot, error) {
	opts := r.opts
	opts.DryRun = true
	res, err := deploy.Update(ctx, opts, &snapshot.Snapshot{})
	if err != nil {
		return nil, r.failure(opPreview, err)
	}
	return res.Snapshot, nil
}
