package hcl

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
)

// packages finds package schemas and resolves Terraform-style type names
// through them.
type packages struct {
	src      eval.SchemaSource
	declared map[string]bool   // packages named by required_providers and provider blocks
	tf       map[string]string // those served by Terraform providers: their addresses
	implied  map[string]string // those of them no required_providers declares: their local names
	versions map[string]string // the versions required_providers asks for
	urls     map[string]string // the plugin download URLs it names
	loaded   map[string]*pkg
}

// pkg is a package's schema with its Terraform-style names.
type pkg struct {
	name      string
	schema    *schema.Package // nil: none
	err       error
	reported  bool                // whether a diagnostic gave err
	resources map[string][]string // name → tokens
	functions map[string][]string
	// ephemerals are a Terraform provider's ephemeral resource types.
	ephemerals map[string][]string
	// tfFunctions are the functions of a Terraform provider, by name:
	// provider::<pkg>::<name> calls them.
	tfFunctions map[string]string
	shapes      *types
}

func newPackages(src eval.SchemaSource) *packages {
	return &packages{src: src, declared: map[string]bool{}, tf: map[string]string{}, implied: map[string]string{}, versions: map[string]string{}, urls: map[string]string{}, loaded: map[string]*pkg{}}
}

// get returns a package, loading its schema the first time.
func (ps *packages) get(name string) *pkg {
	if p, ok := ps.loaded[name]; ok {
		return p
	}
	p := &pkg{name: name, resources: map[string][]string{}, functions: map[string][]string{}, ephemerals: map[string][]string{}, tfFunctions: map[string]string{}}
	ps.loaded[name] = p
	if ps.src == nil {
		return p
	}
	p.schema, p.err = eval.SchemaFrom(context.Background(), ps.src, name, ps.versions[name], ps.urls[name])
	if p.schema == nil {
		return p
	}
	for tok, res := range p.schema.Resources {
		n := typeName(tok)
		if tf := schema.TerraformOf(res.Language); tf != nil && tf.Resource != "" {
			n = tf.Resource
		}
		p.resources[n] = append(p.resources[n], tok)
	}
	for tok, fn := range p.schema.Functions {
		n := typeName(tok)
		if tf := schema.TerraformOf(fn.Language); tf != nil && tf.Function != "" {
			p.tfFunctions[tf.Function] = tok
			continue
		} else if tf != nil && tf.Ephemeral != "" {
			p.ephemerals[tf.Ephemeral] = append(p.ephemerals[tf.Ephemeral], tok)
			continue
		} else if tf != nil && tf.DataSource != "" {
			n = tf.DataSource
		}
		p.functions[n] = append(p.functions[n], tok)
	}
	return p
}

// providerFunctions returns the functions of the declared packages'
// Terraform providers by the names programs call them by,
// provider::<pkg>::<name>.
func (ps *packages) providerFunctions() map[string]string {
	out := map[string]string{}
	for name := range ps.declared {
		for fn, tok := range ps.get(name).tfFunctions {
			out["provider::"+name+"::"+fn] = tok
		}
	}
	return out
}

// packageOf returns the package a Terraform-style name belongs to: the
// longest declared package whose name it starts with, or else its first
// word.
func (ps *packages) packageOf(name string) string {
	best := ""
	for p := range ps.declared {
		if strings.HasPrefix(name, p+"_") && len(p) > len(best) {
			best = p
		}
	}
	if best != "" {
		return best
	}
	if i := strings.IndexByte(name, '_'); i > 0 {
		return name[:i]
	}
	return name
}

// kind is what a type label names: a resource type or a function.
type kind struct {
	noun   string // "resource type", "data source"
	tokens func(*pkg) map[string][]string
	schema func(*schema.Package, string) (string, bool)
}

var (
	resourceKind = kind{"resource type", func(p *pkg) map[string][]string { return p.resources },
		func(s *schema.Package, tok string) (string, bool) { t, _, ok := s.ResolveType(tok); return t, ok }}
	dataKind = kind{"data source", func(p *pkg) map[string][]string { return p.functions },
		func(s *schema.Package, tok string) (string, bool) { t, _, ok := s.ResolveFunction(tok); return t, ok }}
)

// resolve returns the token a type label names and its Terraform-style
// name: the label is a token (random:index/randomPet:RandomPet, or a short
// form the schema resolves) or a Terraform-style name (random_pet), which
// needs the schema of its package: pkg, or when "" the one packageOf
// finds. An unknown or ambiguous name is an error listing the closest
// names.
func (ps *packages) resolve(label, pkg string, k kind, rng hcl.Range) (token, name string, diags hcl.Diagnostics) {
	if strings.Contains(label, ":") {
		p := ps.get(strings.SplitN(label, ":", 2)[0])
		token = label
		if p.schema != nil {
			t, ok := k.schema(p.schema, label)
			if !ok {
				return "", "", ps.unknown(label, p, k, rng)
			}
			token = t
		}
		return token, typeName(token), nil
	}
	if pkg == "" {
		pkg = ps.packageOf(label)
	}
	p := ps.get(pkg)
	if p.schema == nil {
		why := "the package has no schema"
		if p.err != nil {
			why = p.err.Error()
		}
		detail := fmt.Sprintf("Terraform-style names are resolved through the schema of their package (%s), which is not available: %s. Write the full type token instead, such as %s:index:Name.",
			p.name, why, p.name)
		switch {
		case p.reported:
			detail = fmt.Sprintf("The schema of package %s is not available: see the first error about it.", p.name)
		case ps.tf[p.name] != "":
			detail = fmt.Sprintf("The Terraform provider %s, of %s, is not available: %s.", ps.tf[p.name], label, why)
			if local, ok := ps.implied[p.name]; ok {
				detail += fmt.Sprintf(" No required_providers block declares the local name %s, so the provider is %s, as Terraform implies it; "+
					"if %s belongs to another provider, declare it: terraform { required_providers { %s = { source = \"NAMESPACE/%s\" } } }.", local, ps.tf[p.name], label, local, local)
			}
		}
		p.reported = p.err != nil
		return "", "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Unknown %s %s", k.noun, label), Detail: detail, Subject: rng.Ptr()}}
	}
	toks := k.tokens(p)[label]
	switch len(toks) {
	case 1:
		return toks[0], label, nil
	case 0:
		return "", "", ps.unknown(label, p, k, rng)
	}
	sort.Strings(toks)
	return "", "", hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Ambiguous %s %s", k.noun, label),
		Detail:   fmt.Sprintf("%s names %s in package %s; write the one you mean as a full type token.", label, quoted(toks), p.name),
		Subject:  rng.Ptr(),
	}}
}

func (ps *packages) unknown(label string, p *pkg, k kind, rng hcl.Range) hcl.Diagnostics {
	var names []string
	for n, toks := range k.tokens(p) {
		if strings.Contains(label, ":") {
			names = append(names, toks...)
		} else {
			names = append(names, n)
		}
	}
	detail := fmt.Sprintf("Package %s has no %s %s.", p.name, k.noun, label)
	if near := closest(label, names, 3); len(near) > 0 {
		detail += fmt.Sprintf(" Did you mean %s?", quoted(near))
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Unknown %s %s", k.noun, label), Detail: detail, Subject: rng.Ptr()}}
}
