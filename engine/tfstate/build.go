package tfstate

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Target is the stack a state moves into, as its program declares it.
type Target struct {
	// Planned are the program's resources as a preview of the program on
	// an empty stack registers them: their URNs, parents, providers,
	// inputs and options.
	Planned *snapshot.Snapshot
	// Schema returns the schema of a package, to type the attributes of
	// its resources.
	Schema func(pkg string) (*schema.Package, error)
	// NewID makes the ID of a provider resource.
	NewID func() resource.ID
}

// Build returns the snapshot of a stack that holds the resources of a
// state, so that the program declaring them finds them unchanged: each
// managed instance of the state takes the place of the resource the
// program registers under its name (see ModuleName), with the state's
// attributes as its outputs (see Instance.Outputs), its ID, and the
// program's provider, parent, inputs (where the preview knew them) and
// options (a replacement trigger the preview did not know is left to the
// next update to record); its dependencies are the program's and the
// state's. Tainted instances are tainted, deposed ones pending deletion;
// the provisioners of the others have run (see ProvisionersType).
// The providers and module components they use come along, and the
// stack's outputs are the state's; the program's other providers whose
// configuration is known, and its modules that hold no resources, come
// too. Data sources are left out: the program
// reads them anew. The instances the program does not declare are left
// out and listed in undeclared (by address): a preview of the program on
// the snapshot built may know them, when their keys depend on resources.
// An instance the program declares as a resource of another provider is
// an error.
func Build(st *State, t Target) (snap *snapshot.Snapshot, undeclared []string, err error) {
	b := &builder{t: t, planned: map[string]*resource.State{}, byURN: map[resource.URN]*resource.State{},
		included: map[resource.URN]*resource.State{}, providerIDs: map[resource.URN]resource.ID{}, byAddress: map[string][]resource.URN{}}
	b.index()
	type imported struct {
		s    *resource.State
		deps []string
	}
	var all []imported
	for i := range st.Resources {
		r := &st.Resources[i]
		if r.Mode != "managed" {
			continue
		}
		for j := range r.Instances {
			in := &r.Instances[j]
			s, err := b.instance(r, in)
			if err != nil {
				return nil, nil, err
			}
			if s == nil {
				undeclared = append(undeclared, instanceAddress(r, in))
				continue
			}
			all = append(all, imported{s, in.Dependencies})
			if !s.Delete {
				b.byAddress[r.Address()] = append(b.byAddress[r.Address()], s.URN)
			}
		}
	}
	for _, im := range all {
		for _, addr := range im.deps {
			for _, u := range b.byAddress[addr] {
				if u != im.s.URN && !containsURN(im.s.Dependencies, u) {
					im.s.Dependencies = append(im.s.Dependencies, u)
				}
			}
		}
		b.include(im.s)
	}
	if err := b.provisioners(); err != nil {
		return nil, nil, err
	}
	if b.root == nil {
		return nil, nil, fmt.Errorf("the program's preview registered no stack resource")
	}
	b.unrecorded()
	root := b.root.Copy()
	root.Outputs = resource.Map{}
	for _, name := range slices.Sorted(maps.Keys(st.Outputs)) {
		v, err := st.Outputs[name].EngineValue()
		if err != nil {
			return nil, nil, fmt.Errorf("output %s of the state: %w", name, err)
		}
		root.Outputs[name] = v
	}
	b.included[root.URN] = root
	for _, s := range b.included {
		b.prune(s)
	}
	for _, s := range b.deposed {
		b.prune(s)
	}
	return &snapshot.Snapshot{Resources: b.ordered()}, undeclared, nil
}

// prune drops the references of a state to what the snapshot does not
// hold: resources the program declares that the state does not have yet.
func (b *builder) prune(s *resource.State) {
	keep := func(urns []resource.URN) []resource.URN {
		var out []resource.URN
		for _, u := range urns {
			if b.included[u] != nil {
				out = append(out, u)
			}
		}
		return out
	}
	s.Dependencies, s.ReplaceWith = keep(s.Dependencies), keep(s.ReplaceWith)
	for k, deps := range s.PropertyDependencies {
		if s.PropertyDependencies[k] = keep(deps); len(s.PropertyDependencies[k]) == 0 {
			delete(s.PropertyDependencies, k)
		}
	}
	if b.included[s.DeletedWith] == nil {
		s.DeletedWith = ""
	}
}

// builder builds a snapshot.
type builder struct {
	t           Target
	root        *resource.State
	planned     map[string]*resource.State // custom resources by Terraform type and name
	byURN       map[resource.URN]*resource.State
	included    map[resource.URN]*resource.State
	deposed     []*resource.State
	providerIDs map[resource.URN]resource.ID
	byAddress   map[string][]resource.URN // imported instances by their resource's address
	schemas     map[string]*schema.Package
}

// index indexes the planned resources.
func (b *builder) index() {
	b.schemas = map[string]*schema.Package{}
	for _, p := range b.t.Planned.Resources {
		if p.Delete {
			continue
		}
		b.byURN[p.URN] = p
		switch {
		case p.Type == resource.RootStackType && p.Parent == "":
			b.root = p
		case !p.Custom || resource.IsProviderType(p.Type):
		default:
			if tf := b.terraformType(p.Type); tf != "" {
				b.planned[tf+" "+p.URN.Name()] = p
			}
		}
	}
}

// terraformType returns the Terraform name of a resource type token, or
// "" when its package is not a Terraform provider's.
func (b *builder) terraformType(token string) string {
	pkg := b.schema(resource.TypePackage(token))
	if pkg == nil || pkg.Resources[token] == nil {
		return ""
	}
	if tf := schema.TerraformOf(pkg.Resources[token].Language); tf != nil {
		return tf.Resource
	}
	return ""
}

// schema returns a package's schema, or nil.
func (b *builder) schema(name string) *schema.Package {
	if p, ok := b.schemas[name]; ok {
		return p
	}
	p, err := b.t.Schema(name)
	if err != nil {
		p = nil
	}
	b.schemas[name] = p
	return p
}

// instance returns the state of an instance, in the place of the
// resource the program registers under its name; nil when there is none.
func (b *builder) instance(r *Resource, in *Instance) (*resource.State, error) {
	name, err := r.InstanceName(in)
	if err != nil {
		return nil, err
	}
	p := b.planned[r.Type+" "+name]
	if p == nil {
		return nil, nil
	}
	addr := instanceAddress(r, in)
	pkg := b.schema(resource.TypePackage(p.Type))
	provider := r.Provider
	if provider == "" {
		provider = in.Provider
	}
	if err := sameProvider(provider, pkg); err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	outs, id, err := in.Outputs(pkg, pkg.Resources[p.Type])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	s := p.Copy()
	s.ID, s.Outputs, s.Inputs = id, outs, knownInputs(p.Inputs, outs)
	if s.ReplacementTrigger.ContainsUnknowns() {
		// Recorded at the next update: Terraform too replaces for a
		// trigger only when what it names changes in the same plan.
		s.ReplacementTrigger = resource.Null
	}
	s.Taint, s.Delete = in.Status == "tainted", in.Deposed != ""
	s.Created, s.Modified, s.Digest, s.InitErrors = nil, nil, "", nil
	if s.Provider != "" {
		if s.Provider, err = b.provider(s.Provider); err != nil {
			return nil, fmt.Errorf("%s: %w", addr, err)
		}
	}
	return s, nil
}

// knownInputs are the inputs the program gives a resource, with those the
// preview could not know taken from its outputs (secret where they were).
func knownInputs(planned, outputs resource.Map) resource.Map {
	out := resource.Map{}
	for k, v := range planned {
		if !v.ContainsUnknowns() {
			out[k] = v
			continue
		}
		if o, ok := outputs[k]; ok {
			if v.IsSecret() || v.IsOutput() && v.OutputValue().Secret {
				o = resource.MakeSecret(o.Unsecret())
			}
			out[k] = o
		}
	}
	return out
}

// provider returns the reference of the provider resource a planned
// reference names, with the ID it is imported with.
func (b *builder) provider(ref string) (string, error) {
	pr, err := resource.ParseProviderRef(ref)
	if err != nil {
		return "", err
	}
	p := b.byURN[pr.URN]
	if p == nil {
		return "", fmt.Errorf("its provider %s is not among the program's resources", pr.URN)
	}
	if p.Inputs.ContainsUnknowns() {
		return "", fmt.Errorf("the configuration of its provider %s is not known before an update (it refers to values of resources); "+
			"give the provider a configuration known before the update, import, then restore it", pr.URN)
	}
	return resource.ProviderRef{URN: pr.URN, ID: b.providerID(p)}.String(), nil
}

// providerID returns the ID a planned provider resource is imported with,
// adding it to the snapshot the first time.
func (b *builder) providerID(p *resource.State) resource.ID {
	id, ok := b.providerIDs[p.URN]
	if !ok {
		id = b.t.NewID()
		b.providerIDs[p.URN] = id
		s := p.Copy()
		s.ID, s.Outputs, s.Created, s.Modified, s.Digest = id, s.Inputs, nil, nil, ""
		b.include(s)
	}
	return id
}

// unrecorded adds what the program declares that a Terraform state leaves
// no trace of, so that the next update does not create it: providers
// whose configuration is known and that no imported instance uses (those
// only data sources use, or none), and modules holding no resources.
func (b *builder) unrecorded() {
	for _, p := range b.t.Planned.Resources {
		switch {
		case p.Delete || p.Type == resource.RootStackType:
		case resource.IsProviderType(p.Type):
			if !p.Inputs.ContainsUnknowns() {
				b.providerID(p)
			}
		case !p.Custom:
			b.components(p.URN)
		}
	}
}

// include adds a state to the snapshot with the components it is a child
// of.
func (b *builder) include(s *resource.State) {
	if s.Delete {
		b.deposed = append(b.deposed, s)
	} else {
		b.included[s.URN] = s
	}
	b.components(s.Parent)
}

// components adds the planned component u and those it is a child of, up
// to the stack, with what they have that is known.
func (b *builder) components(u resource.URN) {
	for u != "" {
		p := b.byURN[u]
		if p == nil || b.included[u] != nil || p.Type == resource.RootStackType {
			return
		}
		b.included[u] = component(p)
		u = p.Parent
	}
}

// component returns the state of a planned component as the snapshot
// holds it: what the preview knew of its inputs and outputs.
func component(p *resource.State) *resource.State {
	c := p.Copy()
	c.Inputs, c.Outputs = known(p.Inputs), known(p.Outputs)
	c.Created, c.Modified, c.Digest = nil, nil, ""
	return c
}

// known returns the entries of m that hold no unknowns.
func known(m resource.Map) resource.Map {
	out := resource.Map{}
	for k, v := range m {
		if !v.ContainsUnknowns() {
			out[k] = v
		}
	}
	return out
}

// ordered returns the included states in an order where each comes after
// what it refers to (its parent, provider and dependencies), keeping the
// order of the program's preview otherwise; deposed objects come just
// before the live resource of their name.
func (b *builder) ordered() []*resource.State {
	var out []*resource.State
	done := map[resource.URN]bool{}
	var visit func(u resource.URN)
	visit = func(u resource.URN) {
		s := b.included[u]
		if s == nil || done[u] {
			return
		}
		done[u] = true
		for _, ref := range s.References() {
			visit(ref)
		}
		for _, d := range b.deposed {
			if d.URN == u {
				out = append(out, d)
			}
		}
		out = append(out, s)
	}
	for _, p := range b.t.Planned.Resources {
		visit(p.URN)
	}
	for _, u := range sortedURNs(b.included) {
		visit(u)
	}
	return out
}

// sameProvider checks that a state's provider address (provider["HOST/NS/TYPE"],
// with an alias, or the legacy provider.TYPE) names the Terraform provider
// of a package: the same namespace and type, whatever the registry host.
func sameProvider(addr string, pkg *schema.Package) error {
	tf := schema.TerraformOf(pkg.Language)
	if tf == nil || tf.Source == "" {
		return fmt.Errorf("the program's resource of its name is of package %s, which no Terraform provider serves", pkg.Name)
	}
	source := addr
	if i := strings.Index(addr, `provider["`); i >= 0 {
		source = addr[i+len(`provider["`):]
		source = source[:strings.Index(source+`"`, `"`)]
	} else if i := strings.Index(addr, "provider."); i >= 0 {
		source = strings.SplitN(addr[i+len("provider."):], ".", 2)[0] // legacy: the type alone
	}
	if !strings.EqualFold(nsType(source), nsType(tf.Source)) && !(strings.Count(source, "/") == 0 && strings.EqualFold(source, lastPart(tf.Source))) {
		return fmt.Errorf("the state's provider is %s, but the program's resource of its name is served by %s", source, tf.Source)
	}
	return nil
}

// nsType is the namespace and type of a provider source address.
func nsType(source string) string {
	parts := strings.Split(source, "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

func lastPart(source string) string { return source[strings.LastIndexByte(source, '/')+1:] }

// instanceAddress is an instance's address as Terraform writes it.
func instanceAddress(r *Resource, in *Instance) string {
	addr := r.Address()
	switch k := in.IndexKey.(type) {
	case string:
		addr += fmt.Sprintf("[%q]", k)
	case float64:
		addr += fmt.Sprintf("[%d]", int64(k))
	}
	if in.Deposed != "" {
		addr += " (deposed " + in.Deposed + ")"
	}
	return addr
}

func containsURN(urns []resource.URN, u resource.URN) bool {
	for _, x := range urns {
		if x == u {
			return true
		}
	}
	return false
}

func sortedURNs(m map[resource.URN]*resource.State) []resource.URN {
	out := make([]resource.URN, 0, len(m))
	for u := range m {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
