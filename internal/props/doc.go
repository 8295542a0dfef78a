// Package props holds what Cairn's built-in providers (pulumi, random and
// command) do alike, driven by each provider's package schema: it checks
// inputs against the schema's types, fills in the schema's defaults, diffs
// old and new inputs property by property (a change to a property marked
// replaceOnChanges replaces the resource, any other change updates it), and
// reads typed values out of a resource.Map. Base, which each provider
// embeds, answers Pkg, GetPluginInfo and GetSchema from the schema.
//
// Keys that begin with "__" are a provider's own bookkeeping: Check and Diff
// pass over them and Visible removes them.
//
//	//go:embed schema.json
//	var schemaJSON []byte
//	var pkg = props.MustLoad(schemaJSON, Version)
//
//	type Provider struct{ props.Base }
//
//	func New() *Provider { return &Provider{Base: props.Base{Schema: pkg}} }
//
//	func (p *Provider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
//		return p.CheckInputs(req) // the inputs as they are, or the failures
//	}
//
// The package lives under plugins/builtin because the three providers share
// it; it depends on the engine's provider, resource and schema packages only.
package props
