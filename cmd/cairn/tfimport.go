package main

import (
	"context"
	"fmt"
	"strings"

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

// importTerraform moves a Terraform state (format version 4; from a file,
// a configuration's backend or a URL: see readTerraformState) into the
// current stack, which must have no resources:
// previews of the program say what it registers, the state's instances
// take the places of the resources of their names (see tfstate.Build),
// and the snapshot built so goes through the backend's import, under the
// stack's lock, with a backup and a history record.
func importTerraform(c *cli.Context, source string) (err error) {
	s, err := newSession(c, true)
	if err != nil {
		return err
	}
	if err := s.useStack(); err != nil {
		return err
	}
	data, path, err := readTerraformState(c.Context, source, s.stack, s.warn)
	if err != nil {
		return err
	}
	st, err := tfstate.Read(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if w := st.Untested(); w != "" {
		s.warn(path + ": " + w)
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
	snap, err := r.terraformSnapshot(c.Context, path, st)
	if err != nil {
		return err
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

// terraformSnapshot builds the snapshot that holds a Terraform state
// (tfstate.Build) from what previews of the program register: first on an
// empty stack, then, while that leaves instances of the state out whose
// keys came from resources, on the snapshot built so far, which knows more
// of them; once more when the program has provisioners, whose commands
// the snapshot built knows.
func (r *operation) terraformSnapshot(ctx context.Context, path string, st *tfstate.State) (*snapshot.Snapshot, error) {
	schemas := eval.ProviderSchemas(r.host)
	target := tfstate.Target{
		Schema: func(pkg string) (*schema.Package, error) { return schemas.Schema(ctx, pkg, "") },
		NewID:  func() resource.ID { return resource.ID(uuid.NewString()) },
	}
	base := &snapshot.Snapshot{}
	for left, last := -1, false; ; {
		opts := r.opts
		opts.DryRun = true
		res, err := deploy.Update(ctx, opts, base)
		if err != nil {
			return nil, r.failure(opPreview, err)
		}
		target.Planned = res.Snapshot
		snap, undeclared, err := tfstate.Build(st, target)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: %w", path, err)
		case len(undeclared) == 0 && (last || !tfstate.HasProvisioners(target.Planned)):
			return snap, nil
		case len(undeclared) == 0:
			last = true
		case left >= 0 && len(undeclared) >= left:
			return nil, fmt.Errorf("%s: the program does not declare these instances of the state: %s; declare them (or remove them from the state with `terraform state rm`) and import again",
				path, strings.Join(undeclared, ", "))
		}
		base, left = snap, len(undeclared)
	}
}
