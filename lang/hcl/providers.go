package hcl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// Terraform's provider requirements. In a module of Terraform files, a
// resource, data source, ephemeral resource or provider block belongs to
// the provider of a local name: its provider argument's first name, or
// the prefix of its type before the first underscore (null for
// null_resource). The module's required_providers says which provider a
// local name is (foo = { source = "acme/widget" }); a local name it does
// not declare is hashicorp/<name>, as Terraform implies it, except
// terraform, the built-in provider of terraform_data. A provider's package
// is named after its type, whatever its local names.

// BuiltinTerraform is the address of Terraform's built-in provider, which
// serves terraform_data and terraform_remote_state.
const BuiltinTerraform = "terraform.io/builtin/terraform"

// ProviderAddress returns the fully qualified address of a provider
// source (HOST/NAMESPACE/TYPE, as OpenTofu reads it: lower case, on
// registry.opentofu.org when it names no host, hashicorp/TYPE for a lone
// type), or "" when source is not a provider address.
func ProviderAddress(source string) string {
	p, err := tfaddr.ParseSource(source)
	if err != nil {
		return ""
	}
	return p.String()
}

// ImpliedProvider returns the source Terraform implies for a local name
// that required_providers does not declare: hashicorp/<name>, or the
// built-in provider for terraform.
func ImpliedProvider(local string) string {
	if local == "terraform" {
		return BuiltinTerraform
	}
	return "hashicorp/" + local
}

// LocalName returns the local name of the provider a block of a type uses:
// the first name of its provider argument (foo of foo.west or of
// foo.by_region[each.key]), or the type's prefix.
func LocalName(typ string, provider *hcl.Attribute) string {
	if provider != nil {
		e := provider.Expr
		for {
			switch x := e.(type) {
			case *hclsyntax.IndexExpr:
				e = x.Collection
				continue
			case *hclsyntax.RelativeTraversalExpr:
				e = x.Source
				continue
			case *hclsyntax.ScopeTraversalExpr:
				return x.Traversal.RootName()
			}
			break
		}
	}
	local, _, _ := strings.Cut(typ, "_")
	return local
}

// tfRequirement is what the modules of a program require of one Terraform
// provider, by package.
type tfRequirement struct {
	address     string   // its fully qualified address
	source      string   // as first written, the package's parameter
	where       string   // who required it first, for conflicts
	constraints []string // every module's version constraints
	implied     bool     // no required_providers entry declares it
}

// implies reports whether the module's providers are Terraform's: whether
// it is made of Terraform files, read with Terraform providers.
func (m *module) implies() bool { return m.tf && m.l.opts.TerraformProviders != "" }

// providerPackage returns the package serving the provider of a local name
// in the module, declaring the provider Terraform implies for it when
// required_providers does not name it.
func (m *module) providerPackage(local string, rng hcl.Range) string {
	if pkg, ok := m.localNames[local]; ok {
		return pkg
	}
	src := ImpliedProvider(local)
	if src == BuiltinTerraform {
		return "terraform"
	}
	m.localNames[local] = local
	m.requireTerraform(local, src, "", true, rng)
	return local
}

// typePackage returns the package of the provider a block of a type
// uses (see LocalName), "" when the module's providers are not
// Terraform's or the type is a full type token.
func (m *module) typePackage(typ string, provider *hcl.Attribute, rng hcl.Range) string {
	if !m.implies() || strings.Contains(typ, ":") {
		return ""
	}
	return m.providerPackage(LocalName(typ, provider), rng)
}

// resolveType resolves a type label through the package of its provider.
func (m *module) resolveType(label string, provider *hcl.Attribute, k kind, rng hcl.Range) (token, name string, diags hcl.Diagnostics) {
	return m.l.pkgs.resolve(label, m.typePackage(label, provider, rng), k, rng)
}

// requireTerraform declares that the module requires the Terraform
// provider at source (with constraints) as its local name local: the
// package named after its type, served by the plugin
// Options.TerraformProviders, parameterized with the source and the
// constraints of every module that requires it. Two providers of one type
// are an error: their packages would have one name.
func (m *module) requireTerraform(local, source, constraints string, implied bool, rng hcl.Range) {
	addr := ProviderAddress(source)
	pkg := addr[strings.LastIndexByte(addr, '/')+1:]
	m.localNames[local] = pkg
	where := fmt.Sprintf("%s in %s (%s)", local, m.res.where, rng)
	if implied {
		where = fmt.Sprintf("implied by the local name %s in %s (%s)", local, m.res.where, rng)
	}
	req := m.l.tfReqs[pkg]
	switch {
	case req == nil:
		req = &tfRequirement{address: addr, source: source, where: where, implied: implied}
		m.l.tfReqs[pkg] = req
	case req.address != addr:
		m.errorf(rng, "Two providers of one type",
			"This is %s, %s; the program also uses %s, %s. Cairn names a Terraform provider's package after its type, so a program can use one provider of type %s: "+
				"declare the one you mean in required_providers with its source, and choose it with provider = <local name> where a resource type's prefix is not that local name.",
			addr, where, req.address, req.where, pkg)
		return
	default:
		req.implied = req.implied && implied
	}
	if constraints != "" && !slices.Contains(req.constraints, constraints) {
		req.constraints = append(req.constraints, constraints)
	}
	m.l.pkgs.declared[pkg] = true
	m.l.pkgs.tf[pkg] = addr
	if req.implied {
		m.l.pkgs.implied[pkg] = local
	} else {
		delete(m.l.pkgs.implied, pkg)
	}
	spec := workspace.PackageSpec{Source: m.l.opts.TerraformProviders, Parameters: []string{req.source}}
	if len(req.constraints) > 0 {
		spec.Parameters = append(spec.Parameters, strings.Join(req.constraints, ", "))
	}
	if m.l.opts.DeclarePackage != nil {
		m.l.opts.DeclarePackage(pkg, spec)
	}
}

// providerOption returns the provider a resource's provider argument
// chooses. In a module of Terraform files, a local name without an alias
// (provider = foo) chooses the package (see LocalName) and so its default
// provider, whether the module configures it, inherits it, or configures
// none: nil.
func (m *module) providerOption(a *hcl.Attribute) hcl.Expression {
	if a == nil {
		return nil
	}
	if t, diags := hcl.AbsTraversalForExpr(a.Expr); m.tf && !diags.HasErrors() && len(t) == 1 {
		return nil
	}
	return a.Expr
}

// pruneProviders leaves out the provider blocks of modules of Terraform
// files whose packages no resource, data source or ephemeral resource of
// the program uses, as Terraform leaves their configurations out of its
// graph: it neither configures nor validates them (l.unchecked is
// reported for the others). Module calls stop passing them. A provider
// with functions keeps its blocks, for the calls of its functions.
func (l *loader) pruneProviders() {
	used := map[string]bool{}
	for _, m := range l.modules {
		for _, n := range m.nodes {
			switch n := n.(type) {
			case *eval.Resource:
				used[resource.TypePackage(n.Type)] = true
			case *eval.Invoke:
				used[resource.TypePackage(n.Token)] = true
			}
		}
	}
	for _, m := range l.modules {
		if !m.implies() {
			continue
		}
		unused := map[string]bool{} // local names
		m.nodes = slices.DeleteFunc(m.nodes, func(n eval.Node) bool {
			r, ok := n.(*eval.Resource)
			if !ok || !resource.IsProviderType(r.Type) || used[resource.ProviderTypePackage(r.Type)] ||
				len(l.pkgs.get(resource.ProviderTypePackage(r.Type)).tfFunctions) > 0 {
				if ok {
					l.diags = append(l.diags, l.unchecked[r]...)
				}
				return false
			}
			local := strings.TrimPrefix(r.Namespace, "provider.")
			unused[local] = true
			delete(m.res.providers, local)
			return true
		})
		for _, n := range m.nodes {
			if call, ok := n.(*eval.Module); ok {
				call.Options.Providers = withoutProviders(call.Options.Providers, unused)
			}
		}
	}
}

// withoutProviders returns a module call's list of providers without the
// references to the local names of unused.
func withoutProviders(e hcl.Expression, unused map[string]bool) hcl.Expression {
	list, ok := e.(*hclsyntax.TupleConsExpr)
	if !ok || len(unused) == 0 {
		return e
	}
	out := *list
	out.Exprs = slices.DeleteFunc(slices.Clone(list.Exprs), func(x hclsyntax.Expression) bool {
		t, diags := hcl.AbsTraversalForExpr(x)
		return !diags.HasErrors() && unused[t.RootName()]
	})
	if len(out.Exprs) == 0 {
		return nil
	}
	return &out
}

// aliasInput prefixes the names of the inputs that carry the
// configurations a module's caller passes under aliases: no variable can
// be named so.
const aliasInput = "provider "

// configurationAliases reads the configuration_aliases of the
// required_providers entry of a local name: each, local.alias, is a
// configuration the module's caller passes in its providers map
// (local.alias = caller_local.caller_alias), which blocks of the module
// choose with provider = local.alias. It reaches the module as an input
// of its own, since the module's provider of a package is the default.
func (m *module) configurationAliases(local string, e hcl.Expression) {
	exprs, diags := hcl.ExprList(e)
	m.report(diags)
	for _, x := range exprs {
		t, diags := hcl.AbsTraversalForExpr(x)
		alias, ok := attrName(t, 1)
		switch {
		case diags.HasErrors() || len(t) != 2 || !ok || t.RootName() != local:
			m.errorf(x.Range(), "Invalid configuration alias", "A configuration alias of %s is written %s.<alias>, such as %s.east.", local, local, local)
			continue
		case m.key == "":
			m.errorf(x.Range(), "Configuration alias in the root module", "The root module has no caller to pass it %s.%s: declare it with a provider block with alias = %q instead.", local, alias, alias)
			continue
		}
		c := &eval.Config{Decl: eval.Decl{Name: aliasInput + local + "." + alias, Namespace: "provider", Noun: "provider configuration",
			NameRange: x.Range(), DeclRange: x.Range()}, Type: cty.DynamicPseudoType}
		add(m.res.providers, local, alias, c)
		m.nodes = append(m.nodes, c)
	}
}

// aliasInputs returns the configurations the call of module name passes
// under aliases (local.alias = …) by the names of their inputs. Each is a
// local value of the caller's, so that the call, which may refer to aws
// too, need not refer to aws.west (one expression cannot refer to both).
func (m *module) aliasInputs(name string, e hcl.Expression) map[string]hcl.Expression {
	obj, ok := e.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return nil
	}
	out := map[string]hcl.Expression{}
	for _, item := range obj.Items {
		t, diags := hcl.AbsTraversalForExpr(item.KeyExpr)
		alias, ok := attrName(t, 1)
		if diags.HasErrors() || len(t) != 2 || !ok {
			continue
		}
		input := aliasInput + t.RootName() + "." + alias
		local := fmt.Sprintf("%s of module.%s", input, name)
		rng := item.ValueExpr.Range()
		l := &eval.Local{Decl: eval.Decl{Name: local, Namespace: "local", Noun: "provider configuration", NameRange: rng, DeclRange: rng},
			Value: item.ValueExpr}
		addTo(m.res.locals, local, l)
		m.nodes = append(m.nodes, l)
		out[input] = &hclsyntax.ScopeTraversalExpr{Traversal: hcl.Traversal{hcl.TraverseRoot{Name: "local", SrcRange: rng},
			hcl.TraverseAttr{Name: local, SrcRange: rng}}, SrcRange: rng}
	}
	return out
}

// inputsExpr is a module call's inputs with the configurations it passes
// under aliases.
type inputsExpr struct {
	hcl.Expression
	aliases map[string]hcl.Expression
}

// Value implements hcl.Expression.
func (e *inputsExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := e.Expression.Value(ctx)
	plain, marks := v.Unmark()
	if diags.HasErrors() || !plain.IsKnown() || plain.IsNull() || !plain.Type().IsObjectType() {
		return v, diags
	}
	attrs := plain.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	for name, x := range e.aliases {
		pv, ds := x.Value(ctx)
		diags = append(diags, ds...)
		attrs[name] = pv
	}
	return cty.ObjectVal(attrs).WithMarks(marks), diags
}

// Variables implements hcl.Expression.
func (e *inputsExpr) Variables() []hcl.Traversal {
	out := e.Expression.Variables()
	for _, x := range e.aliases {
		out = append(out, x.Variables()...)
	}
	return out
}
