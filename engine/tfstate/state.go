package tfstate

import (
	"encoding/json"
	"fmt"

	"golang.org/x/mod/semver"
)

// Version is the format version of the state files Read reads, the one
// Terraform 0.12 and later and OpenTofu write.
const Version = 4

// State is a Terraform state file.
type State struct {
	Version          int               `json:"version"`
	TerraformVersion string            `json:"terraform_version"`
	Serial           uint64            `json:"serial"`
	Lineage          string            `json:"lineage"`
	Outputs          map[string]Output `json:"outputs"`
	Resources        []Resource        `json:"resources"`
}

// Output is a root module output of a state.
type Output struct {
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive"`
}

// Resource is a resource of a state: all the instances of one resource
// (or data) block of one module instance.
type Resource struct {
	Module    string     `json:"module"` // module.a["x"].module.b; "" for the root module
	Mode      string     `json:"mode"`   // managed or data
	Type      string     `json:"type"`
	Name      string     `json:"name"`
	Provider  string     `json:"provider"` // provider["registry.terraform.io/hashicorp/null"], with .alias
	Instances []Instance `json:"instances"`
}

// Instance is one instance of a resource: its object, or an object
// deposed by a replacement that created its successor first.
type Instance struct {
	IndexKey            any               `json:"index_key"` // a number, a string, or nil
	Status              string            `json:"status"`    // "tainted" or ""
	Deposed             string            `json:"deposed"`
	SchemaVersion       uint64            `json:"schema_version"`
	Attributes          json.RawMessage   `json:"attributes"`
	AttributesFlat      map[string]string `json:"attributes_flat"`
	SensitiveAttributes []json.RawMessage `json:"sensitive_attributes"`
	Private             string            `json:"private"` // base64
	Dependencies        []string          `json:"dependencies"`
	// Provider is the instance's provider where the resource has none:
	// OpenTofu's provider for_each, provider["…"].alias["key"].
	Provider string `json:"provider"`
}

// Read reads a state file. Only format version 4 is read: another version
// is an error that says why and what to do.
func Read(data []byte) (*State, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("it is not a Terraform state (not valid JSON: %w)", err)
	}
	switch {
	case head.Version == nil:
		return nil, fmt.Errorf("it is not a Terraform state: it has no format version")
	case *head.Version < 1:
		return nil, fmt.Errorf("its format version is %d, which no Terraform writes; Cairn reads version %d", *head.Version, Version)
	case *head.Version < Version:
		return nil, fmt.Errorf("its format version is %d, which Terraform 0.11 and earlier wrote; Cairn reads version %d: "+
			"run `terraform apply -refresh-only` once with Terraform 0.12 or later (or OpenTofu) to upgrade it", *head.Version, Version)
	case *head.Version > Version:
		return nil, fmt.Errorf("its format version is %d, newer than the version %d Cairn reads; "+
			"write it with a Terraform or OpenTofu that writes version %d (every release from Terraform 0.12 on does)", *head.Version, Version, Version)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("reading the Terraform state: %w", err)
	}
	if err := s.unique(); err != nil {
		return nil, err
	}
	return &s, nil
}

// unique refuses a state that lists a resource, or an object of an
// instance, twice: Terraform writes each once, and one of the two would be
// lost.
func (s *State) unique() error {
	resources := map[string]int{}
	for i := range s.Resources {
		r := &s.Resources[i]
		addr := r.Address()
		if j, ok := resources[addr]; ok {
			return fmt.Errorf("it lists the resource %s twice (resources[%d] and resources[%d]); Terraform writes each resource once, "+
				"so the file was edited or merged by hand: keep the entry that is right and remove the other, or read the state anew with `terraform state pull`", addr, j, i)
		}
		resources[addr] = i
		instances := map[string]bool{}
		for j := range r.Instances {
			in := &r.Instances[j]
			ia := instanceAddress(r, in)
			if instances[ia] {
				return fmt.Errorf("it lists the object of %s twice (in resources[%d]); Terraform writes each once, "+
					"so the file was edited or merged by hand: keep the object that is right and remove the other, or read the state anew with `terraform state pull`", ia, i)
			}
			instances[ia] = true
		}
	}
	return nil
}

// TestedRelease is the newest release of Terraform or OpenTofu, major and
// minor, whose states Cairn was tested with (Terraform 1.11, OpenTofu
// 1.12).
const TestedRelease = "1.12"

// Untested returns a warning when the state was written by a release of
// Terraform or OpenTofu newer than TestedRelease, whose state may hold
// what Cairn does not read; else "".
func (s *State) Untested() string {
	v := "v" + s.TerraformVersion
	if !semver.IsValid(v) || semver.Compare(semver.MajorMinor(v), "v"+TestedRelease) <= 0 {
		return ""
	}
	return fmt.Sprintf("it was written by Terraform (or OpenTofu) %s, newer than the releases Cairn was tested with (Terraform 1.11, OpenTofu %s); "+
		"its format version %d is the one Cairn reads, but check that `cairn preview` shows no changes after the import", s.TerraformVersion, TestedRelease, Version)
}
