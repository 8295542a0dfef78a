package tfstate

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
)

// MetaKey is the output that keeps, beside the attributes of a resource
// of a Terraform provider, what Terraform keeps beside them in its state:
// the schema version the attributes were written with and the provider's
// private data. Keys beginning with "__" are never displayed; Pulumi's
// bridge of Terraform providers keeps the schema version under the same
// key.
const MetaKey = "__meta"

// NoID is the ID of a resource whose type has no id attribute.
const NoID = "-"

// Meta is the value of MetaKey, as JSON.
type Meta struct {
	SchemaVersion string `json:"schema_version"`
	Private       string `json:"private,omitempty"` // base64
	// Provider is the h1: hash of the provider package that wrote the
	// attributes, at SchemaVersion, from inputs it validated; "" when
	// unknown. The same package need not be asked to upgrade them to the
	// same version, nor to validate the same inputs again.
	Provider string `json:"provider,omitempty"`
}

// Value is the output value of m.
func (m Meta) Value() resource.Value {
	data, _ := json.Marshal(m)
	return resource.String(string(data))
}

// MetaOf reads the MetaKey output of a resource's outputs; without one,
// the schema version is 0 and there is no private data.
func MetaOf(outputs resource.Map) (Meta, error) {
	var m Meta
	if v := outputs[MetaKey]; v.IsString() {
		if err := json.Unmarshal([]byte(v.StringValue()), &m); err != nil {
			return Meta{}, fmt.Errorf("the recorded %s of the resource: %w", MetaKey, err)
		}
	}
	return m, nil
}
