package tfstate

import (
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// ProvisionersType is the type of the resource that holds the provisioners
// of a resource of a Terraform configuration, registered as its child and
// served by Terraform's built-in provider (plugins/tfbuiltin). Its input
// TriggerKey is the ID of the resource: a new ID (a replacement) replaces
// it, which runs its provisioners again.
const ProvisionersType = "terraform:index:Provisioners"

// TriggerKey is the input of a ProvisionersType resource that holds the ID
// of the resource whose provisioners it holds.
const TriggerKey = "trigger"

// provisioners adds the provisioners the program gives the instances of
// the state, as run already: Terraform ran them when it created the
// instances. A tainted instance gets none, as its replacement runs them,
// and Terraform runs no destroy-time provisioner of a tainted instance.
func (b *builder) provisioners() error {
	for _, p := range b.t.Planned.Resources {
		if p.Delete || p.Type != ProvisionersType {
			continue
		}
		parent := b.included[p.Parent]
		if parent == nil || parent.Taint {
			continue
		}
		s := p.Copy()
		s.Inputs = known(p.Inputs)
		s.Inputs[TriggerKey] = resource.String(string(parent.ID))
		s.ID, s.Outputs = parent.ID, s.Inputs
		s.Created, s.Modified, s.Digest, s.InitErrors = nil, nil, "", nil
		if s.Provider != "" {
			var err error
			if s.Provider, err = b.provider(s.Provider); err != nil {
				return err
			}
		}
		b.include(s)
	}
	return nil
}

// HasProvisioners reports whether the program's planned resources have
// provisioners. Their commands usually refer to their resources' values,
// which a preview on an empty stack does not know: Build knows them when
// it is given a preview on the snapshot it built.
func HasProvisioners(planned *snapshot.Snapshot) bool {
	for _, p := range planned.Resources {
		if p.Type == ProvisionersType {
			return true
		}
	}
	return false
}
