// Package schema holds the Pulumi package schema: the JSON document a provider
// returns from GetSchema to describe its configuration, resources, functions
// and types. Providers build it; the languages read it to resolve type tokens,
// check properties and map Terraform-style names.
package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Package is a Pulumi package schema (the subset Cairn reads and writes).
type Package struct {
	Name        string                `json:"name"`
	Version     string                `json:"version,omitempty"`
	DisplayName string                `json:"displayName,omitempty"`
	Description string                `json:"description,omitempty"`
	Meta        *Meta                 `json:"meta,omitempty"`
	Config      *Config               `json:"config,omitempty"`
	Provider    *Resource             `json:"provider,omitempty"`
	Resources   map[string]*Resource  `json:"resources,omitempty"`
	Functions   map[string]*Function  `json:"functions,omitempty"`
	Types       map[string]*ObjectTyp `json:"types,omitempty"`
	Language    map[string]any        `json:"language,omitempty"`
}

// Meta holds package metadata.
type Meta struct {
	ModuleFormat string `json:"moduleFormat,omitempty"`
}

// Config describes the package's provider configuration keys.
type Config struct {
	Variables map[string]*Property `json:"variables,omitempty"`
	Required  []string             `json:"required,omitempty"`
}

// Resource describes one resource type.
type Resource struct {
	Description     string               `json:"description,omitempty"`
	Properties      map[string]*Property `json:"properties,omitempty"`
	Required        []string             `json:"required,omitempty"`
	InputProperties map[string]*Property `json:"inputProperties,omitempty"`
	RequiredInputs  []string             `json:"requiredInputs,omitempty"`
	StateInputs     *ObjectTyp           `json:"stateInputs,omitempty"`
	Aliases         []Alias              `json:"aliases,omitempty"`
	IsComponent     bool                 `json:"isComponent,omitempty"`
	Methods         map[string]string    `json:"methods,omitempty"`
	Language        map[string]any       `json:"language,omitempty"`
}

// Alias is a former type token of a resource.
type Alias struct {
	Type string `json:"type,omitempty"`
}

// Function describes one provider function (invoke).
type Function struct {
	Description string         `json:"description,omitempty"`
	Inputs      *ObjectTyp     `json:"inputs,omitempty"`
	Outputs     *ObjectTyp     `json:"outputs,omitempty"`
	Language    map[string]any `json:"language,omitempty"`
}

// ObjectTyp is an object type: its properties and which are required.
type ObjectTyp struct {
	Description string               `json:"description,omitempty"`
	Type        string               `json:"type,omitempty"`
	Properties  map[string]*Property `json:"properties,omitempty"`
	Required    []string             `json:"required,omitempty"`
	Enum        []EnumValue          `json:"enum,omitempty"`
}

// EnumValue is one allowed value of an enum type.
type EnumValue struct {
	Name  string `json:"name,omitempty"`
	Value any    `json:"value"`
}

// Property describes a property: its type and flags.
type Property struct {
	TypeSpec
	Description          string         `json:"description,omitempty"`
	Secret               bool           `json:"secret,omitempty"`
	ReplaceOnChanges     bool           `json:"replaceOnChanges,omitempty"`
	WillReplaceOnChanges bool           `json:"willReplaceOnChanges,omitempty"`
	Default              any            `json:"default,omitempty"`
	DeprecationMessage   string         `json:"deprecationMessage,omitempty"`
	Language             map[string]any `json:"language,omitempty"`
}

// TypeSpec is a type: a primitive ("string", "integer", "number", "boolean",
// "array", "object"), a reference ("#/types/...", "pulumi.json#/Any",
// "pulumi.json#/Asset", "pulumi.json#/Archive", "pulumi.json#/Json"), or a union.
type TypeSpec struct {
	Type                 string     `json:"type,omitempty"`
	Ref                  string     `json:"$ref,omitempty"`
	Items                *TypeSpec  `json:"items,omitempty"`
	AdditionalProperties *TypeSpec  `json:"additionalProperties,omitempty"`
	OneOf                []TypeSpec `json:"oneOf,omitempty"`
	Plain                bool       `json:"plain,omitempty"`
}

// Parse decodes a package schema.
func Parse(data []byte) (*Package, error) {
	var p Package
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("invalid package schema: %w", err)
	}
	if p.Name == "" {
		return nil, fmt.Errorf("invalid package schema: it has no name")
	}
	return &p, nil
}

// Marshal encodes the schema as JSON.
func (p *Package) Marshal() ([]byte, error) { return json.Marshal(p) }

// ResourceTokens returns the package's resource type tokens in order.
func (p *Package) ResourceTokens() []string {
	out := make([]string, 0, len(p.Resources))
	for t := range p.Resources {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// FunctionTokens returns the package's function tokens in order.
func (p *Package) FunctionTokens() []string {
	out := make([]string, 0, len(p.Functions))
	for t := range p.Functions {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// ResolveType finds the resource whose token is tok or one of its short
// forms: "pkg:Name" for "pkg:index/name:Name", "pkg:mod:Name" for
// "pkg:mod/name:Name", matched without regard to case as Pulumi does. It
// returns the canonical token.
func (p *Package) ResolveType(tok string) (string, *Resource, bool) {
	if r, ok := p.Resources[tok]; ok {
		return tok, r, true
	}
	canon := canonicalTokens(tok)
	for _, t := range p.ResourceTokens() {
		for _, c := range canon {
			if strings.EqualFold(t, c) {
				return t, p.Resources[t], true
			}
		}
		for _, a := range p.Resources[t].Aliases {
			if strings.EqualFold(a.Type, tok) {
				return t, p.Resources[t], true
			}
		}
	}
	return "", nil, false
}

// ResolveFunction finds the function whose token is tok or a short form of it
// (as ResolveType).
func (p *Package) ResolveFunction(tok string) (string, *Function, bool) {
	if f, ok := p.Functions[tok]; ok {
		return tok, f, true
	}
	canon := canonicalTokens(tok)
	for _, t := range p.FunctionTokens() {
		for _, c := range canon {
			if strings.EqualFold(t, c) {
				return t, p.Functions[t], true
			}
		}
	}
	return "", nil, false
}

// canonicalTokens lists the full tokens a short token may stand for.
func canonicalTokens(tok string) []string {
	parts := strings.Split(tok, ":")
	switch len(parts) {
	case 2: // pkg:Name → pkg:index/name:Name, pkg:index:Name
		pkg, name := parts[0], parts[1]
		return []string{pkg + ":index/" + lowerFirst(name) + ":" + name, pkg + ":index:" + name}
	case 3: // pkg:mod:Name → pkg:mod/name:Name
		pkg, mod, name := parts[0], parts[1], parts[2]
		if !strings.Contains(mod, "/") {
			return []string{pkg + ":" + mod + "/" + lowerFirst(name) + ":" + name}
		}
	}
	return nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
