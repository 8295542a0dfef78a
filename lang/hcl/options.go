package hcl

import (
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/eval/values"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

var lifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "create_before_destroy"}, {Name: "prevent_destroy"}, {Name: "ignore_changes"}, {Name: "replace_triggered_by"},
	{Name: "enabled"}, {Name: "destroy"}},
	Blocks: conditionBlocks}

// moduleLifecycleSchema is the schema of a module block's lifecycle block.
var moduleLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}}

// conditionBlocks are the blocks of a lifecycle block that hold
// conditions.
var conditionBlocks = []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}}

// lifecycle reads a resource's lifecycle block. A replacement deletes the
// old resource before it creates the new one, as in Terraform, unless
// create_before_destroy is true; prevent_destroy protects the resource;
// destroy = false (OpenTofu's) retains it when it is deleted; enabled
// (OpenTofu's) is in r.Expansion; preconditions and postconditions go to
// r.Conditions.
func (m *module) lifecycle(blocks []*hcl.Block, r *eval.Resource, sh *shape, rng hcl.Range) {
	o := &r.Options
	cbd := false
	if b := m.single(blocks, "lifecycle"); b != nil {
		content, diags := b.Body.Content(lifecycleSchema)
		m.report(diags)
		m.conditions(content.Blocks, &r.Conditions)
		m.enabled(content.Attributes["enabled"], &r.Expansion, &o.Moved, r.Name)
		if !m.constantBool(content.Attributes["destroy"], true) {
			o.RetainOnDelete = &hclsyntax.LiteralValueExpr{Val: cty.True, SrcRange: content.Attributes["destroy"].Range}
		}
		cbd = m.constantBool(content.Attributes["create_before_destroy"], false)
		if a := content.Attributes["prevent_destroy"]; a != nil {
			o.Protect = &nullProtectsExpr{a.Expr}
		}
		if a := content.Attributes["ignore_changes"]; a != nil {
			if body, ok := r.Properties.(*bodyExpr); ok && sh.types.terraform {
				o.IgnoreChanges = m.ignoreKeys(a, sh, body.body)
			} else {
				o.IgnoreChanges = m.paths(a, sh, true)
			}
		}
		if a := content.Attributes["replace_triggered_by"]; a != nil {
			m.triggerReferences(a.Expr)
			o.ReplacementTrigger = &triggerExpr{a.Expr}
		}
	}
	o.DeleteBeforeReplace = &hclsyntax.LiteralValueExpr{Val: cty.BoolVal(!cbd), SrcRange: rng}
}

// moduleLifecycle reads a module block's lifecycle block: enabled.
func (m *module) moduleLifecycle(blocks []*hcl.Block, mod *eval.Module) {
	if lc := m.single(blocks, "lifecycle"); lc != nil {
		content, diags := lc.Body.Content(moduleLifecycleSchema)
		m.report(diags)
		m.enabled(content.Attributes["enabled"], &mod.Expansion, &mod.Options.Moved, mod.Name)
	}
}

// enabled reads OpenTofu's enabled: one instance or none, instead of count
// or for_each; the instance of a resource or module (moved not nil) takes
// over the state of the instance [0] a count of 0 or 1 made, as OpenTofu
// moves it.
func (m *module) enabled(a *hcl.Attribute, e *eval.Expansion, moved *[]eval.Moved, name string) {
	if a == nil {
		return
	}
	if e.Expanded() {
		m.errorf(a.NameRange, "Invalid combination of \"enabled\" and \"count\" or \"for_each\"",
			"enabled makes one instance or none; with count or for_each, use them alone.")
		return
	}
	e.Enabled = a.Expr
	if moved != nil {
		*moved = append(*moved, eval.Moved{From: name + "[0]", Range: a.Range})
	}
}

// conditions reads precondition and postcondition blocks.
func (m *module) conditions(blocks []*hcl.Block, c *eval.Conditions) {
	for _, b := range blocks {
		switch b.Type {
		case "precondition":
			c.Preconditions = append(c.Preconditions, m.assertion(b.Body))
		case "postcondition":
			c.Postconditions = append(c.Postconditions, m.assertion(b.Body))
		}
	}
}

// triggerReferences reports the elements of a replace_triggered_by list
// that OpenTofu refuses: each must refer to one resource (or an instance,
// or an attribute of it), with count.index and each.key as its only other
// references.
func (m *module) triggerReferences(list hcl.Expression) {
	exprs, diags := hcl.ExprList(list)
	m.report(diags)
	for _, e := range exprs {
		resources := 0
		for _, t := range e.Variables() {
			root := t.RootName()
			attr, _ := attrName(t, 1)
			switch {
			case root == "count" && attr == "index", root == "each" && attr == "key":
			case root == "count" || root == "each":
				m.errorf(e.Range(), "Invalid reference in replace_triggered_by expression", "Only count.index and each.key may be used in replace_triggered_by, beside a resource.")
			case slices.Contains([]string{"var", "local", "module", "path", "terraform", "self", "ephemeral"}, root):
				m.errorf(e.Range(), "Invalid reference in replace_triggered_by expression", "Only resources, count.index and each.key may be used in replace_triggered_by; %s is not a resource.", root)
			default:
				resources++
			}
		}
		switch {
		case resources == 0:
			m.errorf(e.Range(), "Invalid replace_triggered_by expression", "Each element of replace_triggered_by refers to a resource, an instance of one or an attribute of it, such as aws_instance.web or aws_instance.web[count.index].id.")
		case resources > 1:
			m.errorf(e.Range(), "Invalid replace_triggered_by expression", "Each element of replace_triggered_by refers to one resource; list each in an element of its own.")
		}
	}
}

// nullProtectsExpr is a prevent_destroy value. OpenTofu refuses to
// delete or replace a resource whose prevent_destroy is null, as it
// refuses one whose prevent_destroy is true (asking for false instead), so
// null protects the resource.
type nullProtectsExpr struct{ hcl.Expression }

// Value implements hcl.Expression.
func (e *nullProtectsExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := e.Expression.Value(ctx)
	if v.IsNull() {
		return cty.True.WithMarks(v.Marks()), diags
	}
	return v, diags
}

// triggerExpr is a replace_triggered_by list. A reference to a whole
// resource (or its instances) triggers on any change of it, as in
// Terraform: it stands for the resource's outputs, which any change
// changes, rather than for the resource itself (which the engine records
// as a reference, the same whatever changes).
type triggerExpr struct{ hcl.Expression }

// Value implements hcl.Expression.
func (e *triggerExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := e.Expression.Value(ctx)
	return wholeResources(v), diags
}

// wholeResources replaces the resource objects of a list (at any depth of
// lists) by their outputs.
func wholeResources(v cty.Value) cty.Value {
	plain, marks := v.Unmark()
	if !plain.IsKnown() || plain.IsNull() {
		return v
	}
	switch ty := plain.Type(); {
	case ty.IsObjectType() && ty.HasAttribute("urn") && isResource(marks):
		attrs := plain.AsValueMap()
		delete(attrs, "urn")
		return cty.ObjectVal(attrs).WithMarks(marks)
	case ty.IsTupleType() || ty.IsListType():
		var elems []cty.Value
		for it := plain.ElementIterator(); it.Next(); {
			_, el := it.Element()
			elems = append(elems, wholeResources(el))
		}
		return cty.TupleVal(elems).WithMarks(marks)
	}
	return v
}

// isResource reports whether marks say a value depends on a resource.
func isResource(marks cty.ValueMarks) bool {
	for m := range marks {
		if _, ok := m.(values.Dep); ok {
			return true
		}
	}
	return false
}

// single returns the block of a type among blocks, reporting repeats.
func (m *module) single(blocks []*hcl.Block, typ string) *hcl.Block {
	var found *hcl.Block
	for _, b := range blocks {
		if b.Type != typ {
			continue
		}
		if found != nil {
			m.errorf(b.DefRange, fmt.Sprintf("Duplicate %s block", typ), "Only one %s block is allowed; the first is at %s.", typ, found.DefRange)
			continue
		}
		found = b
	}
	return found
}

// optionFields maps the arguments of a pulumi block to the options they
// set; name, which sets the logical name, is apart.
func optionFields(o *eval.ResourceOptions) map[string]*hcl.Expression {
	return map[string]*hcl.Expression{
		"protect":                   &o.Protect,
		"retain_on_delete":          &o.RetainOnDelete,
		"deleted_with":              &o.DeletedWith,
		"replace_on_changes":        &o.ReplaceOnChanges,
		"additional_secret_outputs": &o.AdditionalSecretOutputs,
		"aliases":                   &o.Aliases,
		"custom_timeouts":           &o.CustomTimeouts,
		"import_id":                 &o.Import,
		"version":                   &o.Version,
		"plugin_download_url":       &o.PluginDownloadURL,
		"parent":                    &o.Parent,
		"hide_diffs":                &o.HideDiffs,
		"replace_with":              &o.ReplaceWith,
		"replacement_trigger":       &o.ReplacementTrigger,
		"env_var_mappings":          &o.EnvVarMappings,
	}
}

// pathOptions are the options that list paths of input properties.
var pathOptions = map[string]bool{"replace_on_changes": true, "hide_diffs": true}

// shapes are the shapes of a resource's inputs and outputs.
type shapes struct{ inputs, outputs *shape }

// optionNames returns the names of the arguments of a pulumi block.
func optionNames() []string {
	names := []string{"name"}
	for n := range optionFields(&eval.ResourceOptions{}) {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var pulumiSchema = func() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, n := range optionNames() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: n})
	}
	return s
}()

// pulumiOptions reads the pulumi block of a resource, provider or module:
// the Pulumi options that have no Terraform twin. It returns the logical
// name it gives, if any; r is nil for a module, which cannot be renamed.
func (m *module) pulumiOptions(blocks []*hcl.Block, o *eval.ResourceOptions, sh shapes, r *eval.Resource) hcl.Expression {
	b := m.single(blocks, "pulumi")
	if b == nil {
		return nil
	}
	content, diags := b.Body.Content(pulumiSchema)
	m.report(diags)
	fields := optionFields(o)
	var name hcl.Expression
	for _, a := range sortedAttributes(content.Attributes) {
		switch {
		case a.Name == "name":
			if r == nil {
				m.errorf(a.NameRange, "Invalid option", "A module is named by its label; name applies to resources only.")
			}
			name = a.Expr
		case a.Name == "protect" && o.Protect != nil:
			m.errorf(a.NameRange, "Conflicting options", "lifecycle { prevent_destroy } protects the resource already; keep one of them.")
		case a.Name == "additional_secret_outputs":
			*fields[a.Name] = m.paths(a, sh.outputs, false)
		case pathOptions[a.Name]:
			*fields[a.Name] = m.paths(a, sh.inputs, false)
		case a.Name == "aliases" || a.Name == "custom_timeouts":
			*fields[a.Name] = &camelKeysExpr{a.Expr}
		default:
			*fields[a.Name] = a.Expr
		}
	}
	return name
}

// paths converts a list of property paths written in HCL (references such
// as tags["Name"], or strings) into the engine's paths under the schema's
// names. With all allowed, the keyword all is every property.
func (m *module) paths(a *hcl.Attribute, sh *shape, all bool) hcl.Expression {
	if t, diags := hcl.AbsTraversalForExpr(a.Expr); all && !diags.HasErrors() && len(t) == 1 && t.RootName() == "all" {
		return &hclsyntax.LiteralValueExpr{Val: cty.ListVal([]cty.Value{cty.StringVal(resource.Wildcard)}), SrcRange: a.Expr.Range()}
	}
	exprs, diags := hcl.ExprList(a.Expr)
	m.report(diags)
	var out []cty.Value
	for _, e := range exprs {
		t, diags := hcl.AbsTraversalForExpr(e)
		if diags.HasErrors() {
			if t = stringTraversal(e); t == nil {
				m.errorf(e.Range(), "Invalid property path", "%s lists properties by name, such as tags or tags[\"Name\"].", a.Name)
				continue
			}
		}
		if p, ok := m.path(t, sh); ok {
			out = append(out, cty.StringVal(p.String()))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &hclsyntax.LiteralValueExpr{Val: cty.ListVal(out), SrcRange: a.Expr.Range()}
}

// stringTraversal parses a constant string as a traversal.
func stringTraversal(e hcl.Expression) hcl.Traversal {
	v, diags := e.Value(nil)
	if diags.HasErrors() || v.Type() != cty.String || v.IsNull() {
		return nil
	}
	t, diags := hclsyntax.ParseTraversalAbs([]byte(v.AsString()), e.Range().Filename, e.Range().Start)
	if diags.HasErrors() {
		return nil
	}
	return t
}

// path converts a traversal into a property path under the schema's names.
func (m *module) path(t hcl.Traversal, sh *shape) (resource.Path, bool) {
	var p resource.Path
	for _, step := range t {
		switch step := step.(type) {
		case hcl.TraverseRoot, hcl.TraverseAttr:
			name, _ := attrName(hcl.Traversal{step}, 0)
			switch f := sh.field(name); {
			case sh == openShape:
				p = append(p, camel(name))
			case f != nil:
				p, sh = append(p, f.name), f.block
				if sh == nil {
					sh = openShape
				}
			default:
				m.errorf(step.SourceRange(), "Unsupported attribute", "There is no property %q here.%s", name, eval.DidYouMean(name, sh.names()))
				return nil, false
			}
		case hcl.TraverseIndex:
			k, _ := step.Key.Unmark()
			switch {
			case k.Type() == cty.String:
				p = append(p, k.AsString())
			case k.Type() == cty.Number:
				i, _ := k.AsBigFloat().Int64()
				p = append(p, int(i))
			}
		case hcl.TraverseSplat:
			p = append(p, resource.Wildcard)
		}
	}
	return p, true
}

// camelKeysExpr is an expression whose objects (and the objects of its
// lists) have their keys in camelCase: no_parent is noParent.
type camelKeysExpr struct{ hcl.Expression }

// Value implements hcl.Expression.
func (e *camelKeysExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := e.Expression.Value(ctx)
	return camelKeys(v), diags
}

func camelKeys(v cty.Value) cty.Value {
	plain, marks := v.Unmark()
	if !plain.IsKnown() || plain.IsNull() {
		return v
	}
	switch ty := plain.Type(); {
	case ty.IsObjectType() || ty.IsMapType():
		attrs := map[string]cty.Value{}
		for it := plain.ElementIterator(); it.Next(); {
			k, el := it.Element()
			attrs[camel(k.AsString())] = el
		}
		return cty.ObjectVal(attrs).WithMarks(marks)
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var elems []cty.Value
		for it := plain.ElementIterator(); it.Next(); {
			_, el := it.Element()
			elems = append(elems, camelKeys(el))
		}
		return cty.TupleVal(elems).WithMarks(marks)
	}
	return v
}

var requirementsSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}}}

// terraformSchema is the schema of a terraform block.
var terraformSchema = &hcl.BodySchema{
	// language is Terraform's, which OpenTofu ignores (its language
	// settings are in a language block).
	Attributes: []hcl.AttributeSchema{{Name: "required_version"}, {Name: "experiments"}, {Name: "language"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}, {Type: "backend", LabelNames: []string{"type"}}, {Type: "cloud"},
		{Type: "provider_meta", LabelNames: []string{"provider"}}, {Type: "encryption"}},
}

// LanguageVersion is the version of the Terraform language Cairn
// implements, OpenTofu's: a terraform block's required_version must allow
// it.
const LanguageVersion = "1.12.0"

// terraform reads a terraform block: its required_providers name the
// Terraform providers of the program, as in Terraform, and its
// required_version must allow LanguageVersion. A backend block says where
// Cairn keeps the stacks (see Backend), which the CLI reads before the
// program; a cloud block is not used (said, with how to move the state it
// names into a stack); experiments, provider_meta and OpenTofu's
// encryption are ignored, with a warning.
func (m *module) terraform(b *hcl.Block) {
	content, diags := b.Body.Content(terraformSchema)
	m.report(diags)
	if a := content.Attributes["required_version"]; a != nil {
		m.requiredVersion(a)
	}
	if a := content.Attributes["experiments"]; a != nil {
		m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Experiments not supported",
			Detail: "Cairn implements no experimental language features; the experiments are ignored.", Subject: a.NameRange.Ptr()})
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "required_providers":
			m.requiredProviders(blk, true)
		case "cloud":
			m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Cloud block not used",
				Detail: "Cairn does not keep stacks in HCP Terraform, so the cloud block is not used. " +
					"To move the state HCP Terraform keeps into the current stack, write it to a file with `terraform state pull > terraform.tfstate`, " +
					"then run `cairn stack import --from-terraform terraform.tfstate`.",
				Subject: blk.DefRange.Ptr()})
		case "provider_meta":
			m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Provider metadata not sent",
				Detail: "Cairn does not send provider_meta to providers; the block is ignored.", Subject: blk.DefRange.Ptr()})
		case "encryption":
			m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "State encryption not used",
				Detail: "Cairn keeps the state in its stacks and encrypts the secrets in it with the stack's passphrase " +
					"(CAIRN_CONFIG_PASSPHRASE); the encryption block is ignored.",
				Subject: blk.DefRange.Ptr()})
		}
	}
}

// requiredVersion checks a required_version constraint against
// LanguageVersion.
func (m *module) requiredVersion(a *hcl.Attribute) {
	c, ok := m.versionConstraint(a)
	if ok && !c.Check(version.Must(version.NewVersion(LanguageVersion))) {
		m.errorf(a.Expr.Range(), "Unsupported Terraform Core version",
			"This configuration requires Terraform %s, and Cairn implements the language of OpenTofu %s; change the constraint to allow %s if the configuration works with it.",
			c, LanguageVersion, LanguageVersion)
	}
}

// requirements reads the pulumi block of a file: required_providers gives
// each package's version (and plugin download URL), as
// random = "4.16.0" or random = { version = "4.16.0", plugin_download_url = "…" };
// with parameters, the package is served by the provider named by source,
// parameterized: bucket = { source = "kv", version = "2.0.0", parameters = ["bucket"] }.
// Terraform providers are declared in the terraform block.
func (m *module) requirements(b *hcl.Block) {
	content, diags := b.Body.Content(requirementsSchema)
	m.report(diags)
	for _, rp := range content.Blocks {
		m.requiredProviders(rp, false)
	}
}

// requiredProviders reads a required_providers block; in a terraform
// block, every entry is a Terraform provider.
func (m *module) requiredProviders(rp *hcl.Block, terraform bool) {
	attrs, diags := rp.Body.JustAttributes()
	m.report(diags)
	for _, a := range sortedAttributes(attrs) {
		if !terraform {
			m.l.pkgs.declared[a.Name] = true
			m.localNames[a.Name] = a.Name
		}
		expr := a.Expr
		if terraform {
			expr = m.withoutAliases(expr, a.Name)
		}
		v, diags := expr.Value(nil)
		m.report(diags)
		o := &eval.ResourceOptions{}
		var spec workspace.PackageSpec
		switch {
		case diags.HasErrors():
			continue
		case terraform && v.Type() == cty.String && !v.IsNull():
			m.terraformProvider(a, ImpliedProvider(a.Name), v.AsString())
			continue
		case v.Type() == cty.String && !v.IsNull():
			o.Version = &hclsyntax.LiteralValueExpr{Val: v, SrcRange: a.Expr.Range()}
		case v.Type().IsObjectType() && !v.IsNull():
			fields := v.AsValueMap()
			if terraform {
				src, ok := stringAttr(fields, "source")
				if !ok {
					src = ImpliedProvider(a.Name)
				}
				ver, _ := stringAttr(fields, "version")
				m.terraformProvider(a, src, ver)
				continue
			}
			for k, el := range fields {
				switch {
				case k == "version":
					o.Version = &hclsyntax.LiteralValueExpr{Val: el, SrcRange: a.Expr.Range()}
				case k == "plugin_download_url":
					o.PluginDownloadURL = &hclsyntax.LiteralValueExpr{Val: el, SrcRange: a.Expr.Range()}
				case k == "parameters":
					spec.Parameters = m.strings(a, el)
				case k != "source":
					m.errorf(a.Expr.Range(), "Invalid provider requirement", "A requirement has a source, a version, a plugin_download_url and parameters, not %s.", k)
				}
			}
			if spec.Parameters != nil {
				if !m.parameterized(a, v, &spec) {
					continue
				}
				o = &eval.ResourceOptions{} // the plugin's version is the package's
			}
		default:
			m.errorf(a.Expr.Range(), "Invalid provider requirement", "Give %s a version string, or an object with version and plugin_download_url.", a.Name)
			continue
		}
		m.l.versions[a.Name] = o
		m.l.pkgs.versions[a.Name] = literal(o.Version)
		m.l.pkgs.urls[a.Name] = literal(o.PluginDownloadURL)
	}
}

// withoutAliases returns a required_providers entry without its
// configuration_aliases, which declare the configurations a module's
// caller passes under aliases (see configurationAliases).
func (m *module) withoutAliases(e hcl.Expression, local string) hcl.Expression {
	obj, ok := e.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return e
	}
	out := *obj
	out.Items = nil
	for _, item := range obj.Items {
		if k := hcl.ExprAsKeyword(item.KeyExpr); k == "configuration_aliases" {
			m.configurationAliases(local, item.ValueExpr)
			continue
		}
		out.Items = append(out.Items, item)
	}
	return &out
}

// stringAttr returns the string attribute k of an object's attributes.
func stringAttr(attrs map[string]cty.Value, k string) (string, bool) {
	v, ok := attrs[k]
	if !ok || v.Type() != cty.String || v.IsNull() {
		return "", false
	}
	return v.AsString(), true
}

// terraformProvider reads the required_providers entry a of a terraform
// block: the Terraform provider at source, at the newest version meeting
// constraints, is the provider of the local name a.Name in the module
// (see requireTerraform). terraform.io/builtin/terraform is the built-in
// provider of the package terraform.
func (m *module) terraformProvider(a *hcl.Attribute, source, constraints string) {
	addr, err := tfaddr.ParseSource(source)
	if err == nil {
		_, err = tfaddr.ParseConstraints(constraints)
	}
	switch {
	case err != nil:
		m.errorf(a.Expr.Range(), "Invalid provider requirement", "%v; write the source as NAMESPACE/TYPE or HOST/NAMESPACE/TYPE, such as \"hashicorp/null\", and the version as constraints such as \"~> 3.2\".", err)
	case addr.String() == BuiltinTerraform:
		m.localNames[a.Name] = "terraform"
	case addr.IsBuiltIn():
		m.errorf(a.Expr.Range(), "Unknown built-in provider", "%s is not a built-in provider: the one built-in provider is %s.", source, BuiltinTerraform)
	case m.l.opts.TerraformProviders == "":
		m.errorf(a.Expr.Range(), "Terraform providers not supported", "This program is loaded without support for Terraform providers, so %s cannot be used.", source)
	default:
		m.requireTerraform(a.Name, source, constraints, false, a.Expr.Range())
	}
}

// parameterized completes the spec of a requirement with parameters: its
// source names the provider plugin serving the package, at its version.
func (m *module) parameterized(a *hcl.Attribute, v cty.Value, spec *workspace.PackageSpec) bool {
	attrs := v.AsValueMap()
	src, ver := attrs["source"], attrs["version"]
	if src == cty.NilVal || src.Type() != cty.String || src.IsNull() || src.AsString() == "" {
		m.errorf(a.Expr.Range(), "Invalid provider requirement", "A requirement with parameters is a parameterized package: name the provider plugin serving it with source = \"<plugin>\".")
		return false
	}
	spec.Source = src.AsString()
	if ver != cty.NilVal && ver.Type() == cty.String && !ver.IsNull() {
		spec.Version = ver.AsString()
	}
	if m.l.opts.DeclarePackage != nil {
		m.l.opts.DeclarePackage(a.Name, *spec)
	}
	return true
}

// strings reads a list of strings of a requirement.
func (m *module) strings(a *hcl.Attribute, v cty.Value) []string {
	out := []string{}
	if !v.CanIterateElements() {
		m.errorf(a.Expr.Range(), "Invalid provider requirement", "parameters is a list of strings.")
		return out
	}
	for it := v.ElementIterator(); it.Next(); {
		_, el := it.Element()
		if el.Type() != cty.String || el.IsNull() {
			m.errorf(a.Expr.Range(), "Invalid provider requirement", "parameters is a list of strings.")
			continue
		}
		out = append(out, el.AsString())
	}
	return out
}

// literal returns the string of a requirement's literal, or "".
func literal(e hcl.Expression) string {
	if v, ok := e.(*hclsyntax.LiteralValueExpr); ok && v.Val.Type() == cty.String && !v.Val.IsNull() {
		return v.Val.AsString()
	}
	return ""
}

// defaultVersion gives a resource of pkg the version (and plugin download
// URL) that required_providers names, unless it names its own.
func (l *loader) defaultVersion(pkg string, o *eval.ResourceOptions) {
	if req := l.versions[pkg]; req != nil {
		if o.Version == nil {
			o.Version = req.Version
		}
		if o.PluginDownloadURL == nil {
			o.PluginDownloadURL = req.PluginDownloadURL
		}
	}
}
