package lsp

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ProjectSchema is the JSON Schema of Pulumi.yaml, with the sections of a
// YAML program, for editors whose YAML support validates and completes
// files by schema. The server reads it too, to complete and describe the
// keys of YAML programs.
//
//go:embed pulumi-yaml.schema.json
var ProjectSchema []byte

// jsonSchema is the part of a JSON Schema the server reads.
type jsonSchema struct {
	Ref                  string                 `json:"$ref"`
	Description          string                 `json:"description"`
	Properties           map[string]*jsonSchema `json:"properties"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	Items                *jsonSchema            `json:"items"`
	Enum                 []any                  `json:"enum"`
	AnyOf                []*jsonSchema          `json:"anyOf"`
	Definitions          map[string]*jsonSchema `json:"definitions"`
}

// projectSchema is ProjectSchema, decoded.
var projectSchema = func() *jsonSchema {
	var s jsonSchema
	if err := json.Unmarshal(ProjectSchema, &s); err != nil {
		panic(fmt.Sprintf("pulumi-yaml.schema.json: %v", err))
	}
	return &s
}()

// resolve follows a reference to a definition.
func (s *jsonSchema) resolve() *jsonSchema {
	for s != nil && s.Ref != "" {
		s = projectSchema.Definitions[strings.TrimPrefix(s.Ref, "#/definitions/")]
	}
	return s
}

// alternatives returns s and the schemas of its anyOf, resolved.
func (s *jsonSchema) alternatives() []*jsonSchema {
	s = s.resolve()
	if s == nil {
		return nil
	}
	out := []*jsonSchema{s}
	for _, a := range s.AnyOf {
		out = append(out, a.alternatives()...)
	}
	return out
}

// at returns the schema of the value at path below s ("[]" for an item of
// an array), or nil when the schema says nothing of it.
func (s *jsonSchema) at(path []string) *jsonSchema {
	for _, step := range path {
		var next *jsonSchema
		for _, a := range s.alternatives() {
			switch {
			case step == "[]" && a.Items != nil:
				next = a.Items
			case a.Properties[step] != nil:
				next = a.Properties[step]
			case len(a.AdditionalProperties) > 0 && a.AdditionalProperties[0] == '{':
				var ap jsonSchema
				if json.Unmarshal(a.AdditionalProperties, &ap) == nil {
					next = &ap
				}
			}
			if next != nil {
				break
			}
		}
		if next == nil {
			return nil
		}
		s = next
	}
	return s
}

// keys returns the properties s describes, by name, in name order.
func (s *jsonSchema) keys() []jsonKey {
	seen := map[string]bool{}
	var out []jsonKey
	for _, a := range s.alternatives() {
		for name, p := range a.Properties {
			if !seen[name] {
				seen[name] = true
				out = append(out, jsonKey{name: name, schema: p})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

type jsonKey struct {
	name   string
	schema *jsonSchema
}

// describe returns the description of s (or of its first alternative that
// has one).
func (s *jsonSchema) describe() string {
	for _, a := range s.alternatives() {
		if a.Description != "" {
			return a.Description
		}
	}
	return ""
}

// enum returns the values s allows, when it lists them.
func (s *jsonSchema) enum() []string {
	var out []string
	for _, a := range s.alternatives() {
		for _, v := range a.Enum {
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}
