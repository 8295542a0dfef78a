package schema

import (
	"encoding/json"
	"strings"
	"unicode"
)

// Terraform is what the schema of a package served by a Terraform provider
// records, under the "terraform" key of the language of the package, of a
// resource, of a function and of a property, of what the provider itself
// declares: the languages that write Terraform's way (HCL) read it to name
// types and decode blocks exactly as Terraform does.
type Terraform struct {
	// Source is the provider's source address (of the package).
	Source string `json:"source,omitempty"`
	// Resource, DataSource, Ephemeral and Function are the Terraform
	// names of a resource type, a data source and an ephemeral resource
	// (functions of the schema), and a provider function.
	Resource   string `json:"resource,omitempty"`
	DataSource string `json:"dataSource,omitempty"`
	Ephemeral  string `json:"ephemeral,omitempty"`
	Function   string `json:"function,omitempty"`
	// WriteOnly is set on an input property that is write-only: sent to
	// the provider, never kept in the state, and so the one kind of
	// resource argument that may take ephemeral values.
	WriteOnly bool `json:"writeOnly,omitempty"`
	// Nesting is set on a property written as nested blocks: single,
	// group, list, set or map; MinItems and MaxItems bound how many.
	Nesting  string `json:"nesting,omitempty"`
	MinItems int    `json:"minItems,omitempty"`
	MaxItems int    `json:"maxItems,omitempty"`
}

// TerraformOf returns the Terraform record of a language map, or nil.
func TerraformOf(language map[string]any) *Terraform {
	raw, ok := language["terraform"]
	if !ok {
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var t Terraform
	if json.Unmarshal(data, &t) != nil {
		return nil
	}
	return &t
}

// Language returns the language map holding t.
func (t *Terraform) Language() map[string]any { return map[string]any{"terraform": t} }

// SnakeCase returns the snake_case spelling of a camelCase or PascalCase
// name, the way Terraform names what a Pulumi schema names in camelCase:
// overrideSpecial is override_special, b64Std is b64_std, HTTPServer is
// http_server, SelfSignedCert is self_signed_cert.
func SnakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
