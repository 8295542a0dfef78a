package deploy

import (
	"context"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Monitor is the interface programs use to declare resources. One monitor
// serves one deployment; its methods may be called concurrently. In-process
// languages call it directly; the gRPC ResourceMonitor service translates wire
// requests into these calls.
type Monitor interface {
	// RegisterResource declares a resource and blocks until the steps that
	// bring it to its desired state have finished.
	RegisterResource(ctx context.Context, req RegisterRequest) (*RegisterResponse, error)
	// RegisterResourceOutputs records the outputs of a component resource
	// (the stack's outputs, for the root stack resource).
	RegisterResourceOutputs(ctx context.Context, urn resource.URN, outputs resource.Map) error
	// ReadResource reads an existing resource that the stack does not manage.
	ReadResource(ctx context.Context, req ReadResourceRequest) (*ReadResourceResponse, error)
	// Invoke calls a provider function.
	Invoke(ctx context.Context, req InvokeRequest) (*InvokeResponse, error)
	// Call calls a method of a component resource.
	Call(ctx context.Context, req CallRequest) (*CallResponse, error)
	// Forget declares that the resource recorded under urn is to leave the
	// stack without being deleted: unless the program registers it, it is
	// removed from the state by a discard step, and its provider is not
	// called. A URN the state does not hold is not an error. A URN whose
	// name has no instance key forgets the instances of that name too
	// (name[<key>], of the same type and parents' types): HCL's removed
	// block for a resource with count or for_each.
	Forget(ctx context.Context, urn resource.URN) error
	// ForgetComponent is Forget for the components under parent named
	// name, or name[<key>] (its instances), whatever their type: HCL's
	// removed block for a module, whose type (its folder) the program no
	// longer knows. A forgotten resource's descendants are discarded
	// with it.
	ForgetComponent(ctx context.Context, parent resource.URN, name string) error
}

// Alias names a former identity of a resource: a URN, or parts of one that
// default to the resource's own.
type Alias struct {
	URN      resource.URN
	Name     string
	Type     string
	Stack    string
	Project  string
	Parent   resource.URN
	NoParent bool
	// AnyParent names the old resource of the name and type whatever its
	// parents' types, when exactly one has them: a Terraform move out of
	// a module call no longer declared, whose type (its folder) the
	// program no longer knows.
	AnyParent bool
}

// RegisterRequest declares a resource and its options.
type RegisterRequest struct {
	Type   string
	Name   string
	Custom bool
	Remote bool // a component constructed by its provider
	Parent resource.URN

	Properties           resource.Map
	PropertyDependencies map[string][]resource.URN
	Dependencies         []resource.URN

	Provider          string            // explicit provider reference
	Providers         map[string]string // package → provider reference, for children
	Version           string
	PluginDownloadURL string // a different URL makes a different default provider
	// Parameterization, for a package served by a parameterized provider,
	// says which plugin serves it and how to parameterize it.
	Parameterization *Parameterization
	// EnvVarMappings renames environment variables for a provider
	// resource's plugin (new name → the variable it is read from).
	EnvVarMappings map[string]string

	Protect                 *bool
	DeleteBeforeReplace     *bool
	RetainOnDelete          *bool
	IgnoreChanges           []string
	ReplaceOnChanges        []string
	AdditionalSecretOutputs []string
	HideDiffs               []string
	Aliases                 []Alias
	ImportID                resource.ID
	CustomTimeouts          *resource.CustomTimeouts
	DeletedWith             resource.URN
	ReplaceWith             []resource.URN
	ReplacementTrigger      resource.Value
	SourcePosition          string
	// TaintsParent makes a failed create or update of the resource taint
	// its parent, which the next update then replaces: Terraform's taint
	// of a resource whose creation-time provisioner failed.
	TaintsParent bool
}

// Parameterization says that a package is served by a parameterized
// provider plugin (Pulumi's parameterized providers): the plugin Plugin, at
// the request's version, parameterized with Value, serves package Name at
// Version.
type Parameterization struct {
	Plugin  string
	Name    string
	Version string
	Value   []byte
}

// RegisterResponse is the registered resource as the program sees it.
type RegisterResponse struct {
	URN                  resource.URN
	ID                   resource.ID // empty for components; UnknownID in a preview of a create
	Outputs              resource.Map
	Stables              []string
	PropertyDependencies map[string][]resource.URN
	// Skipped is set when the resource was not created because it was not
	// targeted; its outputs are unknown.
	Skipped bool
	// Changed is set when the registration changed the resource (in a
	// preview: would change it): created, updated, replaced or imported
	// it.
	Changed bool
}

// ReadResourceRequest reads an external resource.
type ReadResourceRequest struct {
	Type                    string
	Name                    string
	ID                      resource.ID
	Parent                  resource.URN
	Properties              resource.Map
	Dependencies            []resource.URN
	Provider                string
	Version                 string
	AdditionalSecretOutputs []string
}

// ReadResourceResponse is the external resource's URN and state.
type ReadResourceResponse struct {
	URN     resource.URN
	Outputs resource.Map
}

// InvokeRequest calls a provider function.
type InvokeRequest struct {
	Token             string
	Args              resource.Map
	Provider          string
	Version           string
	PluginDownloadURL string
	Parameterization  *Parameterization
}

// InvokeResponse is a function's result.
type InvokeResponse struct {
	Return resource.Map
	// Unknown is set during a preview when the result cannot be known yet
	// (the provider is not configured).
	Unknown bool
}

// CallRequest calls a component method.
type CallRequest struct {
	Token           string
	Args            resource.Map
	ArgDependencies map[string][]resource.URN
	Provider        string
	Version         string
}

// CallResponse is a method's result.
type CallResponse struct {
	Return             resource.Map
	ReturnDependencies map[string][]resource.URN
}

// Program is what a deployment runs to learn the desired state: an evaluated
// YAML or HCL document, or a language host.
type Program interface {
	Run(ctx context.Context, info RunInfo) error
}

// RunInfo is what a program needs to run.
type RunInfo struct {
	Monitor      Monitor
	Project      string
	Stack        string
	Organization string
	// Config holds the stack's configuration by "<namespace>:<key>"; secret
	// values are secrets.
	Config   map[string]resource.Value
	DryRun   bool
	Parallel int
}

// ProgramFunc adapts a function to the Program interface.
type ProgramFunc func(ctx context.Context, info RunInfo) error

// Run calls f.
func (f ProgramFunc) Run(ctx context.Context, info RunInfo) error { return f(ctx, info) }
