package eval

import (
	"strconv"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// Node is one declaration of a scope: a config input, a local value, a
// resource, an invoke, a module call, a check, a removed resource or an
// output. Nodes are
// pointers to the types of this file; their names are unique in their scope.
type Node interface {
	// Declaration returns the name and source ranges common to every node.
	Declaration() *Decl
	// Expressions returns the node's expressions (nil entries allowed): the
	// references found in them are the node's dependencies.
	Expressions() []hcl.Expression
}

// Decl is what every node has: its name, the noun the language uses for it in
// messages ("resource", "variable", "local value", ...), and where it is.
// Names are unique within a namespace of a scope: YAML has one namespace,
// HCL one per kind of block (var, local, module) and resource type.
type Decl struct {
	Name      string
	Namespace string
	Noun      string
	NameRange hcl.Range
	DeclRange hcl.Range
}

// Declaration implements Node.
func (d *Decl) Declaration() *Decl { return d }

// String describes the node in messages: `resource "web"`.
func (d *Decl) String() string { return d.Noun + " " + strconv.Quote(d.Name) }

// Config is an input of the stack (or of a module): a value of the stack's
// configuration, converted to Type.
type Config struct {
	Decl
	// Key is the configuration key, "<namespace>:<name>"; a key without a
	// namespace belongs to the project's. In a module body, the module call's
	// input named Decl.Name provides the value instead.
	Key string
	// Type is the type the value is converted to; cty.DynamicPseudoType
	// accepts any value, and a map of cty.DynamicPseudoType any object,
	// unless TerraformTypes.
	Type    cty.Type
	Default hcl.Expression // nil: the value is required
	Secret  bool
	// TerraformTypes converts values to Type as Terraform's type
	// constraints do: a map(any) gives its elements one type, so that
	// { a = 1, b = "x" } is a map of strings (Pulumi YAML's object, the
	// same type, takes any object as it is).
	TerraformTypes bool
	// Ephemeral marks the value values.Ephemeral: it may go to providers'
	// configurations, local values and ephemeral outputs, not to
	// resources or other outputs. A module's input that is not
	// ephemeral refuses such a value.
	Ephemeral bool
	// Deprecated, when set, is said in a warning when the stack's input
	// is given a value.
	Deprecated string
	// Defaults fills in the optional attributes a value leaves out of an
	// object type (HCL's optional(type, default)); nil: none.
	Defaults *typeexpr.Defaults
	// NotNull makes a null value take the default.
	NotNull bool
	// Validations are conditions on the value (which refer to the node
	// itself); a false one is an error.
	Validations []Assertion
	// Implicit is set for a namespaced key that the program uses without
	// declaring it; it is a required string.
	Implicit bool
	// Over and Under are values of a stack input given beside the stack's
	// configuration (HCL reads Terraform's variable definitions: -var
	// flags, .tfvars files, TF_VAR_ variables): Over wins over the stack's
	// configuration, which wins over Under. nil: none.
	Over, Under *GivenValue
}

// GivenValue is a value of a stack input given outside the program and
// the stack's configuration.
type GivenValue struct {
	Value cty.Value
	// Source says where it comes from, for messages: "-var size=3",
	// "TF_VAR_size"; Range is where it is written, for a file.
	Source string
	Range  *hcl.Range
}

// Local is a named intermediate value: a YAML variable or an HCL local.
type Local struct {
	Decl
	Value hcl.Expression
}

// Resource declares a resource: a custom resource, a provider (its type is
// "pulumi:providers:<pkg>"), a component its provider constructs (as its
// schema says), or an existing resource read by ID. Components the program
// builds itself are Modules.
type Resource struct {
	Decl
	// Type is the type token as written; the checker resolves short forms
	// ("random:RandomString") through the package schema.
	Type      string
	TypeRange hcl.Range
	// LogicalName overrides the name the resource is registered under; nil
	// means Decl.Name. Instances of an expanded resource append their key
	// ("web[0]", `web["a"]`) unless the expression refers to the instance.
	LogicalName hcl.Expression
	Properties  hcl.Expression // an object; nil: no properties
	Options     ResourceOptions
	Get         *Get // read an existing resource instead of managing one
	Expansion   Expansion
	// DefaultProvider makes this provider resource the provider of every
	// resource and invoke of its package in the scope that names none.
	DefaultProvider bool
	// StrayOptions are keys written among the options that are not options;
	// the checker reports them, as properties to move when the schema has
	// them.
	StrayOptions []Key
	// Conditions are checked before and after the resource registers.
	Conditions
	// Provisioners, when set, is registered as the child of each instance
	// once the instance is registered, before anything that refers to
	// the instance goes on; a failure to create it taints the instance.
	Provisioners *Provisioners
}

// Provisioners is a resource that runs another's provisioners (HCL's
// Terraform provisioners): its type, and its properties, evaluated with
// self bound to the instance they belong to. It is named as the
// instance is.
type Provisioners struct {
	Type       string
	Properties hcl.Expression
}

// Conditions are the conditions of a resource or invoke: preconditions,
// checked before it registers (or is called), and postconditions, checked
// after, with self its value. A false one is an error; one not known yet
// holds.
type Conditions struct {
	Preconditions, Postconditions []Assertion
}

func (c *Conditions) expressions() []hcl.Expression {
	return append(assertionExpressions(c.Preconditions), assertionExpressions(c.Postconditions)...)
}

// Key is a key as written, with its range.
type Key struct {
	Name  string
	Range hcl.Range
}

// ResourceOptions are a resource's options as expressions; nil means unset.
// Resource-valued options take resource objects (or lists of them).
type ResourceOptions struct {
	DependsOn               hcl.Expression
	Parent                  hcl.Expression
	Protect                 hcl.Expression
	IgnoreChanges           hcl.Expression
	ReplaceOnChanges        hcl.Expression
	DeleteBeforeReplace     hcl.Expression
	RetainOnDelete          hcl.Expression
	DeletedWith             hcl.Expression
	Aliases                 hcl.Expression // strings (URNs) or objects {name, type, parent, noParent, stack, project, urn}
	CustomTimeouts          hcl.Expression // {create, update, delete, read} as durations ("5m")
	AdditionalSecretOutputs hcl.Expression
	Provider                hcl.Expression
	Providers               hcl.Expression // a list of providers, or an object of them by package
	Version                 hcl.Expression
	PluginDownloadURL       hcl.Expression
	Import                  hcl.Expression
	ReplaceWith             hcl.Expression
	ReplacementTrigger      hcl.Expression
	HideDiffs               hcl.Expression
	// EnvVarMappings, on a provider resource, maps the name of an
	// environment variable to the name its plugin sees the value under.
	EnvVarMappings hcl.Expression
	// Moved are the names the resource had before, whose state it takes
	// over.
	Moved []Moved
}

// Moved is a former name of a resource or module in its scope (HCL's moved
// block): the state recorded under it is taken over through an alias, so
// that a rename does not replace anything.
type Moved struct {
	// From is the former name, with its instance key when it had one: web,
	// web[0], web["a"].
	From string
	// Type is the former type token; "" when it is the same.
	Type string
	// Key limits the move to the instance with this key, written as in
	// instance names (0, "a"). When Key is "" the move applies to every
	// instance, which keep their keys unless From has one.
	Key string
	// Up is how many modules up from the resource's scope the move is
	// declared, when it moves the resource between modules; From is then
	// the name in the module instances FromModules, from the scope of the
	// declaration, and the move applies in the module instances Within
	// (from there too) only.
	Up          int
	FromModules []MovedModule
	Within      []string
	Range       hcl.Range
}

// MovedModule is a module instance a resource moved out of: its name with
// its key (site, site[0]) and its component's type, empty when the
// module call is no longer declared (the old resource is then found by
// its name and type alone).
type MovedModule struct {
	Name, Type string
}

func (o *ResourceOptions) expressions() []hcl.Expression {
	return []hcl.Expression{o.DependsOn, o.Parent, o.Protect, o.IgnoreChanges, o.ReplaceOnChanges,
		o.DeleteBeforeReplace, o.RetainOnDelete, o.DeletedWith, o.Aliases, o.CustomTimeouts,
		o.AdditionalSecretOutputs, o.Provider, o.Providers, o.Version, o.PluginDownloadURL, o.Import,
		o.ReplaceWith, o.ReplacementTrigger, o.HideDiffs, o.EnvVarMappings}
}

// Get reads an existing resource by ID, with optional state to match.
type Get struct {
	ID    hcl.Expression
	State hcl.Expression // nil: none
	Range hcl.Range
}

// Expansion makes several instances of a node: Count instances keyed 0..n-1,
// or one per key of ForEach (a map, or a set or list of strings: see
// Dialect.ToSet). Both nil: a single instance. Inside, count.index,
// each.key and each.value name the instance.
type Expansion struct {
	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled, a bool, makes a node without count or forEach have its one
	// instance or none, its value then null (OpenTofu's lifecycle {
	// enabled }).
	Enabled hcl.Expression
}

// Expanded reports whether the node has instances.
func (e Expansion) Expanded() bool { return e.Count != nil || e.ForEach != nil }

// Invoke calls a provider function (an HCL data source); its value is the
// function's result.
type Invoke struct {
	Decl
	Token      string
	TokenRange hcl.Range
	Args       hcl.Expression // an object; nil: no arguments
	Options    InvokeOptions
	Expansion  Expansion
	Conditions
	// DeferChanged leaves the invoke's value unknown in a preview when a
	// resource or module it depends on would change (HCL's data sources,
	// as Terraform defers their reads).
	DeferChanged bool
	// Check is the check block the invoke is scoped to (HCL's data block
	// in a check block), or nil: its errors are warnings, and when it fails
	// the check's assertions are skipped.
	Check *Check
	// Ephemeral marks the value values.Ephemeral and secret: Terraform's
	// ephemeral resources, which the provider opens anew in each
	// operation and whose values are never kept.
	Ephemeral bool
}

// InvokeOptions are the options of an invoke.
type InvokeOptions struct {
	DependsOn         hcl.Expression
	Provider          hcl.Expression
	Version           hcl.Expression
	PluginDownloadURL hcl.Expression
}

// Module instantiates a nested scope as a component resource of type Type:
// the body's Config nodes take their values from Inputs (by name), its
// resources are children of the component, and its outputs are the value of
// the module and the component's outputs.
type Module struct {
	Decl
	Type      string
	Body      *Scope
	Inputs    hcl.Expression // an object; nil: no inputs
	Options   ResourceOptions
	Expansion Expansion
}

// Check holds assertions evaluated once their references are known; a
// failed assertion is a warning.
type Check struct {
	Decl
	Assertions []Assertion
}

// Assertion is a condition and the message reported when it is false.
type Assertion struct {
	Condition hcl.Expression
	Message   hcl.Expression
}

// Removed is a resource the program no longer declares whose state is to
// be forgotten rather than deleted (HCL's removed block with destroy =
// false): the engine drops it from the stack without calling its provider.
type Removed struct {
	// Decl.Name is the resource's name in its scope, with its instance key
	// if it had one.
	Decl
	Type string // its type token; "" for a module, forgotten with what is under it
}

// Output is a stack output (or, in a module body, an output of the module).
type Output struct {
	Decl
	Value  hcl.Expression
	Secret bool
	// Ephemeral allows an ephemeral value, and marks the value so: the
	// output of a module, left out of its component's outputs. Another
	// output refuses an ephemeral value.
	Ephemeral bool
	// Preconditions are checked before the value is; a false one is an
	// error.
	Preconditions []Assertion
	// DependsOn lists what the output waits for beside what its value
	// refers to.
	DependsOn hcl.Expression
}

// Expressions implements Node.
func (c *Config) Expressions() []hcl.Expression {
	return append([]hcl.Expression{c.Default}, assertionExpressions(c.Validations)...)
}

// Expressions implements Node.
func (l *Local) Expressions() []hcl.Expression { return []hcl.Expression{l.Value} }

// Expressions implements Node.
func (r *Resource) Expressions() []hcl.Expression {
	out := append([]hcl.Expression{r.LogicalName, r.Properties, r.Expansion.Count, r.Expansion.ForEach, r.Expansion.Enabled},
		r.Options.expressions()...)
	out = append(out, r.Conditions.expressions()...)
	if r.Provisioners != nil {
		out = append(out, r.Provisioners.Properties)
	}
	if r.Get != nil {
		out = append(out, r.Get.ID, r.Get.State)
	}
	return out
}

// Expressions implements Node.
func (i *Invoke) Expressions() []hcl.Expression {
	return append([]hcl.Expression{i.Args, i.Expansion.Count, i.Expansion.ForEach, i.Expansion.Enabled, i.Options.DependsOn,
		i.Options.Provider, i.Options.Version, i.Options.PluginDownloadURL}, i.Conditions.expressions()...)
}

// Expressions implements Node.
func (m *Module) Expressions() []hcl.Expression {
	return append([]hcl.Expression{m.Inputs, m.Expansion.Count, m.Expansion.ForEach, m.Expansion.Enabled}, m.Options.expressions()...)
}

// Expressions implements Node.
func (c *Check) Expressions() []hcl.Expression { return assertionExpressions(c.Assertions) }

func assertionExpressions(as []Assertion) []hcl.Expression {
	var out []hcl.Expression
	for _, a := range as {
		out = append(out, a.Condition, a.Message)
	}
	return out
}

// Expressions implements Node.
func (r *Removed) Expressions() []hcl.Expression { return nil }

// Expressions implements Node.
func (o *Output) Expressions() []hcl.Expression {
	return append([]hcl.Expression{o.Value, o.DependsOn}, assertionExpressions(o.Preconditions)...)
}

// Scope is one namespace of nodes: a program's root, or a module's body.
type Scope struct {
	Nodes    []Node
	Resolver Resolver
	// Dir is the directory relative paths are resolved against (pulumi.cwd,
	// HCL's path.module).
	Dir string
}

// Program is a stack's program: the root scope and what the evaluator needs
// to know about the project. It implements deploy.Program.
type Program struct {
	Root *Scope
	// Project and Description are what the program declares; the project
	// name of deploy.RunInfo is the one used.
	Project     string
	Description string
	// RootDir is the project's root directory (where Pulumi.yaml is).
	RootDir string
	// Files holds the sources by file name, for diagnostics snippets.
	Files map[string]*hcl.File
	// Schemas provides package schemas for type checking and short type
	// tokens; nil skips both.
	Schemas SchemaSource
	// Dialect names things the way the program's language does.
	Dialect Dialect
	// Warn receives the warnings found while the program runs.
	Warn func(*hcl.Diagnostic)
	// Packages are the project's packages served by parameterized
	// providers, by name, as the engine serves them.
	Packages map[string]Package
	// ProviderFunctions are functions the program calls by name
	// (provider::null::noop) that provider functions implement, by name:
	// a call invokes the token with its arguments as the list "arguments"
	// and returns the result's "result".
	ProviderFunctions map[string]string

	analyzed sync.Once
	analysis *analysis
}

// Dialect is how a language names the parts of a resource, for hints.
type Dialect struct {
	OptionNames     []string // the names of resource options
	OptionsBlock    string   // where options go ("options")
	PropertiesBlock string   // where properties go ("properties")
	// PropertyName spells a schema property name the language's way (HCL's
	// snake_case); the outputs of resources and functions are read under
	// these names. Nil keeps the schema's names.
	PropertyName func(string) string
	// Unsecret is how the language makes a secret value plain, for hints
	// ("nonsensitive()").
	Unsecret string
	// ForEach is the name of the argument that expands a node by keys
	// ("for_each"); empty, "forEach".
	ForEach string
	// ToSet, when set, is the function that makes a set of a list
	// ("toset"), and means that ForEach takes only a map or a set of
	// strings, as Terraform's for_each does: a list or tuple is refused,
	// with a call of ToSet as the hint. Empty, a list or tuple of strings
	// is taken too (Pulumi YAML's forEach).
	ToSet string
	// OmitNullOutputs leaves the stack's outputs whose value is null out
	// of its outputs, as Terraform leaves out a root module's.
	OmitNullOutputs bool
}
