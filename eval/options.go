package eval

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// optionReader evaluates option expressions into Go values. An option that
// is null is unset; one that is not known yet is unset during a preview and
// an error otherwise. Errors are reported and clear ok.
type optionReader struct {
	s    *scopeRun
	ectx *hcl.EvalContext
	ok   bool
}

func (s *scopeRun) options(ectx *hcl.EvalContext) *optionReader {
	return &optionReader{s: s, ectx: ectx, ok: true}
}

// value evaluates e; it returns false when the option is unset.
func (o *optionReader) value(e hcl.Expression) (cty.Value, bool) {
	return o.known(e, cty.Value.IsWhollyKnown)
}

// resources evaluates an option that names resources. A resource's URN is
// known before its outputs are, so during a preview the option is set even
// while the outputs of the resources it names are not known yet (a parent
// whose outputs feed the child's inputs keeps its child's URN, an alias
// naming a parent still matches).
func (o *optionReader) resources(e hcl.Expression) (cty.Value, bool) {
	return o.known(e, knownResources)
}

// knownResources reports whether v is known but for the outputs of the
// resources it holds.
func knownResources(v cty.Value) bool {
	for _, el := range flattenResources(v) {
		if _, ok := asResource(el); !ok && !el.IsWhollyKnown() {
			return false
		}
	}
	return true
}

// known evaluates e, whose value is usable when known says so, and returns
// it without its marks.
func (o *optionReader) known(e hcl.Expression, known func(cty.Value) bool) (cty.Value, bool) {
	v, ok := o.marked(e, known)
	if !ok {
		return cty.NilVal, false
	}
	v, _ = v.UnmarkDeep()
	return v, !v.IsNull()
}

// marked evaluates e, whose value is usable when known says so.
func (o *optionReader) marked(e hcl.Expression, known func(cty.Value) bool) (cty.Value, bool) {
	if e == nil {
		return cty.NilVal, false
	}
	v, ok := o.s.eval(o.ectx, e)
	if !ok {
		o.ok = false
		return cty.NilVal, false
	}
	if !known(v) {
		if !o.s.r.info.DryRun {
			o.fail(e, "The value of this option is not known yet; an option can only use values known before the resource is registered.")
		}
		return cty.NilVal, false
	}
	return v, true
}

func (o *optionReader) fail(e hcl.Expression, detail string) {
	o.ok = false
	o.s.r.report(hcl.Diagnostics{errorDiag(e.Range(), "Invalid resource option", detail)})
}

func (o *optionReader) wrongType(e hcl.Expression, want string, v cty.Value) {
	o.fail(e, fmt.Sprintf("The option must be %s; this is a %s.", want, v.Type().FriendlyName()))
}

func (o *optionReader) bool(e hcl.Expression) *bool {
	v, ok := o.value(e)
	if !ok {
		return nil
	}
	if v.Type() != cty.Bool {
		o.wrongType(e, "true or false", v)
		return nil
	}
	b := v.True()
	return &b
}

func (o *optionReader) string(e hcl.Expression) string {
	v, ok := o.value(e)
	if !ok {
		return ""
	}
	if v.Type() != cty.String {
		o.wrongType(e, "a string", v)
		return ""
	}
	return v.AsString()
}

// importID reads the ID of the resource to adopt. The state keeps IDs in
// plain text, so it cannot be secret.
func (o *optionReader) importID(e hcl.Expression) resource.ID {
	v, ok := o.marked(e, cty.Value.IsWhollyKnown)
	switch {
	case !ok:
		return ""
	case v.HasMark(values.Secret):
		o.fail(e, fmt.Sprintf("The import ID is secret, or derived from a secret, but it becomes the resource's ID, which the state keeps in plain text. "+
			"If it is not secret, make it plain with %s.", o.s.r.prog.Dialect.Unsecret))
		return ""
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return ""
	}
	if v.Type() != cty.String {
		o.wrongType(e, "a string", v)
		return ""
	}
	return resource.ID(v.AsString())
}

// strings reads a list of strings (or a single string).
func (o *optionReader) strings(e hcl.Expression) []string {
	v, ok := o.value(e)
	if !ok {
		return nil
	}
	if v.Type() == cty.String {
		return []string{v.AsString()}
	}
	if !v.CanIterateElements() || v.Type().IsMapType() || v.Type().IsObjectType() {
		o.wrongType(e, "a list of strings", v)
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, el := it.Element()
		if el.IsNull() || el.Type() != cty.String {
			o.wrongType(e, "a list of strings", v)
			return nil
		}
		out = append(out, el.AsString())
	}
	return out
}

// urn reads a single resource.
func (o *optionReader) urn(e hcl.Expression) resource.URN {
	v, ok := o.resources(e)
	if !ok {
		return ""
	}
	if r, ok := asResource(v); ok {
		return r.urn
	}
	o.wrongType(e, "a resource", v)
	return ""
}

// urns reads resources: a resource, a list of them, or the instances of an
// expanded resource; any other value counts by the resources it was
// computed from (a module's outputs, say).
func (o *optionReader) urns(e hcl.Expression) []resource.URN {
	if e == nil {
		return nil
	}
	v, ok := o.s.eval(o.ectx, e)
	if !ok {
		o.ok = false
		return nil
	}
	var out []resource.URN
	for _, el := range flattenResources(v) {
		if r, ok := asResource(el); ok {
			out = append(out, r.urn)
			continue
		}
		_, deps, err := values.ToEngine(el)
		if err != nil || len(deps) == 0 {
			el, _ = el.UnmarkDeep()
			if el.IsKnown() {
				o.wrongType(e, "a resource or a list of resources", el)
				return nil
			}
		}
		out = append(out, deps...)
	}
	return out
}

// flattenResources returns the elements of lists, tuples, sets and
// objects that are not resources themselves, recursively. Ephemeral
// resources, which order what depends on them but are never resources of
// the stack, are left out.
func flattenResources(v cty.Value) []cty.Value {
	if v.HasMark(values.Ephemeral) {
		return nil
	}
	plain, _ := v.Unmark()
	if _, ok := asResource(v); ok || !plain.IsKnown() || plain.IsNull() || !plain.CanIterateElements() {
		if plain.IsNull() {
			return nil
		}
		return []cty.Value{v}
	}
	var out []cty.Value
	for it := plain.ElementIterator(); it.Next(); {
		_, el := it.Element()
		out = append(out, flattenResources(el)...)
	}
	return out
}

// resourceValue is what a value that is a resource names.
type resourceValue struct {
	urn resource.URN
	id  resource.ID // UnknownID when not known yet; "" for components
}

// asResource reports whether v is a resource object (the value of a
// resource, with its "urn", or of a Terraform resource, marked with it).
func asResource(v cty.Value) (resourceValue, bool) {
	if urn := values.ResourceOf(v); urn != "" {
		out := resourceValue{urn: urn, id: resource.UnknownID}
		if obj, _ := v.UnmarkDeep(); obj.IsKnown() && !obj.IsNull() && obj.Type().IsObjectType() && obj.Type().HasAttribute("id") {
			if id := obj.GetAttr("id"); id.IsKnown() && !id.IsNull() && id.Type() == cty.String {
				out.id = resource.ID(id.AsString())
			}
		}
		return out, true
	}
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute("urn") {
		return resourceValue{}, false
	}
	u := v.GetAttr("urn")
	if !u.IsKnown() || u.IsNull() || u.Type() != cty.String {
		return resourceValue{}, false
	}
	urn, err := resource.ParseURN(u.AsString())
	if err != nil {
		return resourceValue{}, false
	}
	out := resourceValue{urn: urn}
	if v.Type().HasAttribute("id") {
		switch id := v.GetAttr("id"); {
		case !id.IsKnown():
			out.id = resource.UnknownID
		case !id.IsNull() && id.Type() == cty.String:
			out.id = resource.ID(id.AsString())
		}
	}
	return out, true
}

// providerRef returns the reference "<urn>::<id>" of a provider resource.
func providerRef(v cty.Value) (string, error) {
	r, ok := asResource(v)
	if !ok {
		return "", fmt.Errorf("it is a %s, not a provider resource", v.Type().FriendlyName())
	}
	if !resource.IsProviderType(r.urn.Type()) {
		return "", fmt.Errorf("%s is a %s, not a provider resource", r.urn.Name(), r.urn.Type())
	}
	id := r.id
	if id == "" {
		id = resource.UnknownID
	}
	return resource.ProviderRef{URN: r.urn, ID: id}.String(), nil
}

func (o *optionReader) provider(e hcl.Expression) string {
	v, ok := o.resources(e)
	if !ok {
		return ""
	}
	ref, err := providerRef(v)
	if err != nil {
		o.fail(e, fmt.Sprintf("The option must be a provider resource; %v.", err))
	}
	return ref
}

// providers reads a list of providers, or an object of them, into a map by
// package.
func (o *optionReader) providers(e hcl.Expression) map[string]string {
	v, ok := o.resources(e)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, el := range flattenResources(v) {
		ref, err := providerRef(el)
		if err != nil {
			o.fail(e, fmt.Sprintf("The option must hold provider resources; %v.", err))
			return nil
		}
		pr, _ := resource.ParseProviderRef(ref)
		out[pr.Package()] = ref
	}
	return out
}

// aliases reads aliases: URN strings, or objects whose fields default to
// the resource's own.
func (o *optionReader) aliases(e hcl.Expression) []deploy.Alias {
	v, ok := o.resources(e)
	if !ok {
		return nil
	}
	if !v.CanIterateElements() || v.Type().IsObjectType() || v.Type().IsMapType() {
		v = cty.TupleVal([]cty.Value{v})
	}
	var out []deploy.Alias
	for it := v.ElementIterator(); it.Next(); {
		_, el := it.Element()
		a, problem := alias(el)
		if problem != "" {
			o.fail(e, problem)
			return nil
		}
		out = append(out, a)
	}
	return out
}

// alias reads one alias: a URN or an object of its parts; problem, when
// not empty, says what is wrong with it, as a diagnostic's detail.
func alias(v cty.Value) (a deploy.Alias, problem string) {
	if v.Type() == cty.String {
		urn, err := resource.ParseURN(v.AsString())
		if err != nil {
			return deploy.Alias{}, fmt.Sprintf("An alias must be a URN or an object: %v.", err)
		}
		return deploy.Alias{URN: urn}, ""
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return deploy.Alias{}, fmt.Sprintf("An alias must be a URN or an object of name, type, parent, noParent, stack, project and urn; this is a %s.", v.Type().FriendlyName())
	}
	for it := v.ElementIterator(); it.Next(); {
		k, el := it.Element()
		if el.IsNull() {
			continue
		}
		key := k.AsString()
		if key == "parent" {
			if r, ok := asResource(el); ok {
				a.Parent = r.urn
				continue
			}
		}
		if !el.IsWhollyKnown() {
			return a, fmt.Sprintf("The alias field %s is not known yet; an alias can only use values known before the resource is registered.", key)
		}
		if key == "noParent" {
			if el.Type() != cty.Bool {
				return a, "The alias field noParent must be true or false."
			}
			a.NoParent = el.True()
			continue
		}
		field := map[string]*string{"name": &a.Name, "type": &a.Type, "stack": &a.Stack, "project": &a.Project,
			"urn": (*string)(&a.URN), "parent": (*string)(&a.Parent), "parentUrn": (*string)(&a.Parent)}[key]
		if field == nil {
			return a, fmt.Sprintf("An alias has no field %s; its fields are name, type, parent, noParent, stack, project and urn.%s",
				key, DidYouMean(key, []string{"name", "type", "parent", "noParent", "stack", "project", "urn"}))
		}
		if el.Type() != cty.String {
			return a, fmt.Sprintf("The alias field %s must be a string; it is a %s.", key, el.Type().FriendlyName())
		}
		*field = el.AsString()
	}
	return a, ""
}

// timeouts reads {create, update, delete, read}: durations such as "5m",
// or numbers of seconds.
func (o *optionReader) timeouts(e hcl.Expression) *resource.CustomTimeouts {
	v, ok := o.value(e)
	if !ok {
		return nil
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		o.wrongType(e, "an object of create, update, delete and read timeouts", v)
		return nil
	}
	var t resource.CustomTimeouts
	fields := map[string]*float64{"create": &t.Create, "update": &t.Update, "delete": &t.Delete, "read": &t.Read}
	for it := v.ElementIterator(); it.Next(); {
		k, el := it.Element()
		field := fields[k.AsString()]
		if field == nil {
			o.fail(e, fmt.Sprintf("There is no timeout %s; the timeouts are create, update, delete and read.", k.AsString()))
			return nil
		}
		secs, err := seconds(el)
		if err != nil {
			o.fail(e, fmt.Sprintf("The timeout %s %v.", k.AsString(), err))
			return nil
		}
		*field = secs
	}
	return &t
}

func seconds(v cty.Value) (float64, error) {
	switch {
	case v.IsNull():
		return 0, nil
	case v.Type() == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return f, nil
	case v.Type() == cty.String:
		d, err := time.ParseDuration(v.AsString())
		if err != nil {
			return 0, fmt.Errorf("is %q, not a duration such as \"5m\" or \"1h30m\"", v.AsString())
		}
		return d.Seconds(), nil
	}
	return 0, fmt.Errorf("is a %s, not a duration", v.Type().FriendlyName())
}

// trigger reads a replacement trigger: any value, unknown during a preview
// when it is not known yet.
func (o *optionReader) trigger(e hcl.Expression) resource.Value {
	if e == nil {
		return resource.Null
	}
	v, ok := o.s.eval(o.ectx, e)
	if !ok {
		o.ok = false
		return resource.Null
	}
	if !v.IsWhollyKnown() && !o.s.r.info.DryRun {
		o.fail(e, "The replacement trigger is not known yet; it can only use values known before the resource is registered.")
		return resource.Null
	}
	ev, _, err := values.ToEngine(v)
	if err != nil {
		o.fail(e, err.Error())
	}
	return ev
}

// read fills a registration's options.
func (o *optionReader) read(opts *ResourceOptions, req *deploy.RegisterRequest) {
	if p := o.urn(opts.Parent); p != "" {
		req.Parent = p
	}
	req.Dependencies = append(req.Dependencies, o.urns(opts.DependsOn)...)
	req.Protect = o.bool(opts.Protect)
	req.IgnoreChanges = o.strings(opts.IgnoreChanges)
	req.ReplaceOnChanges = o.strings(opts.ReplaceOnChanges)
	req.DeleteBeforeReplace = o.bool(opts.DeleteBeforeReplace)
	req.RetainOnDelete = o.bool(opts.RetainOnDelete)
	req.DeletedWith = o.urn(opts.DeletedWith)
	req.Aliases = o.aliases(opts.Aliases)
	req.CustomTimeouts = o.timeouts(opts.CustomTimeouts)
	req.AdditionalSecretOutputs = o.strings(opts.AdditionalSecretOutputs)
	req.Provider = o.provider(opts.Provider)
	req.Providers = o.providers(opts.Providers)
	req.Version = o.string(opts.Version)
	req.PluginDownloadURL = o.string(opts.PluginDownloadURL)
	req.ImportID = o.importID(opts.Import)
	req.ReplaceWith = o.urns(opts.ReplaceWith)
	req.ReplacementTrigger = o.trigger(opts.ReplacementTrigger)
	req.HideDiffs = o.strings(opts.HideDiffs)
	req.EnvVarMappings = o.envVarMappings(opts.EnvVarMappings, req.Type)
}

// envVarMappings reads the renamed environment variables of a provider
// resource's plugin: a map from a variable's name to the name the plugin
// sees its value under.
func (o *optionReader) envVarMappings(e hcl.Expression, typ string) map[string]string {
	v, ok := o.value(e)
	if !ok {
		return nil
	}
	if !resource.IsProviderType(typ) {
		o.fail(e, fmt.Sprintf("envVarMappings renames environment variables for a provider's plugin, so it is only valid on a provider resource (type %s<package>), not on a %s.", resource.ProviderTypePrefix, typ))
		return nil
	}
	const want = "a mapping of environment variable names to the names the provider sees them under"
	if !v.Type().IsMapType() && !v.Type().IsObjectType() {
		o.wrongType(e, want, v)
		return nil
	}
	out := map[string]string{}
	for it := v.ElementIterator(); it.Next(); {
		k, el := it.Element()
		if el.IsNull() || el.Type() != cty.String {
			o.wrongType(e, want, v)
			return nil
		}
		out[k.AsString()] = el.AsString()
	}
	return out
}
