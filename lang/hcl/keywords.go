package hcl

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// Keyword is a kind of block, as an editor completes it: what it is for,
// the arguments it takes beside those of a schema, and the blocks it
// holds.
type Keyword struct {
	Doc    string
	Args   []string
	Blocks []string
}

// topBlocks are the blocks of a file's top level, with their schemas.
var topBlocks = map[string]struct {
	doc    string
	schema *hcl.BodySchema
}{
	"resource":  {"A resource: its type (random_pet, or a type token) and its name.", resourceSchema},
	"data":      {"A call of a provider function (a data source): its type and its name.", dataSchema},
	"ephemeral": {"An ephemeral resource, opened in each operation and never kept: its type and its name.", dataSchema},
	"variable":  {"An input of the stack, from its configuration; of a module, from its call.", variableSchema},
	"output":    {"An output of the stack, or of a module.", outputSchema},
	"locals":    {"Named values.", &hcl.BodySchema{}},
	"module":    {"A call of a local module: a folder of *.tf (or *.hcl) files.", callSchema},
	"provider":  {"A provider resource of a package; without an alias, the default one.", providerSchema},
	"moved":     {"A former address of a resource or module, whose state it takes over.", movedSchema},
	"import":    {"An existing resource to adopt.", importSchema},
	"removed":   {"A resource no longer declared, to forget rather than delete.", removedSchema},
	"check":     {"Assertions, and the data sources they read, reported as warnings when they fail.", checkSchema},
	"pulumi":    {"Package versions: required_providers.", requirementsSchema},
	"terraform": {"Terraform's settings: required_providers, required_version; a backend is not used.", terraformSchema},
	"language":  {"OpenTofu's language settings: compatible_with { opentofu = \"…\" }, the versions the module works with.", languageSchema},
}

// nestedBlocks are the schemas of the blocks nested in those, by type;
// lifecycle holds the arguments of every kind of lifecycle block.
var nestedBlocks = map[string][]*hcl.BodySchema{
	"lifecycle":     {lifecycleSchema, removedLifecycleSchema},
	"validation":    {assertionSchema},
	"assert":        {assertionSchema},
	"precondition":  {assertionSchema},
	"postcondition": {assertionSchema},
}

// Keywords returns the blocks of a file's top level by type, from the
// schemas the language decodes them with.
func Keywords() map[string]Keyword {
	out := map[string]Keyword{}
	for _, b := range fileSchema.Blocks {
		t := topBlocks[b.Type]
		out[b.Type] = keyword(t.doc, t.schema)
	}
	return out
}

// NestedKeywords returns the blocks nested in those of the top level
// (lifecycle, validation, assert, precondition, postcondition) by type.
func NestedKeywords() map[string]Keyword {
	out := map[string]Keyword{}
	for typ, schemas := range nestedBlocks {
		k := Keyword{}
		for _, s := range schemas {
			more := keyword("", s)
			k.Args = append(k.Args, more.Args...)
			k.Blocks = append(k.Blocks, more.Blocks...)
		}
		slices.Sort(k.Args)
		k.Args = slices.Compact(k.Args)
		out[typ] = k
	}
	return out
}

func keyword(doc string, s *hcl.BodySchema) Keyword {
	k := Keyword{Doc: doc}
	for _, a := range s.Attributes {
		k.Args = append(k.Args, a.Name)
	}
	for _, b := range s.Blocks {
		k.Blocks = append(k.Blocks, b.Type)
	}
	return k
}
