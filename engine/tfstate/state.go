package tfstate

import (
	"encoding/json"
	"fmt"
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
	return &s, nil
}
