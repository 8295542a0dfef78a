// Package provider declares the interface between the engine and resource
// providers: the Go form of the Pulumi provider protocol. Built-in providers
// implement it in-process; the plugins packages implement it over gRPC.
package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Provider is one provider instance. The engine calls CheckConfig, DiffConfig
// and Configure before any resource operation, and SignalCancellation then
// Close when it is done with the instance. Methods may be called concurrently.
type Provider interface {
	// Pkg returns the name of the package the provider serves.
	Pkg() string

	GetPluginInfo(ctx context.Context) (PluginInfo, error)
	GetSchema(ctx context.Context, req GetSchemaRequest) ([]byte, error)

	CheckConfig(ctx context.Context, req CheckRequest) (CheckResponse, error)
	DiffConfig(ctx context.Context, req DiffRequest) (DiffResponse, error)
	Configure(ctx context.Context, req ConfigureRequest) (ConfigureResponse, error)

	Check(ctx context.Context, req CheckRequest) (CheckResponse, error)
	Diff(ctx context.Context, req DiffRequest) (DiffResponse, error)
	Create(ctx context.Context, req CreateRequest) (CreateResponse, error)
	Read(ctx context.Context, req ReadRequest) (ReadResponse, error)
	Update(ctx context.Context, req UpdateRequest) (UpdateResponse, error)
	Delete(ctx context.Context, req DeleteRequest) error

	Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error)
	Call(ctx context.Context, req CallRequest) (CallResponse, error)
	Construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error)
	Parameterize(ctx context.Context, req ParameterizeRequest) (ParameterizeResponse, error)

	// SignalCancellation asks the provider to stop outstanding operations
	// gracefully; it does not wait for them.
	SignalCancellation(ctx context.Context) error
	// Close releases the instance (for plugins, shuts the process down).
	Close() error
}

// PluginInfo describes a provider implementation.
type PluginInfo struct {
	Version string // semantic version, without a leading "v"
	// InputsOnly declares that the provider's Check and Diff answer from
	// nothing but their requests and its configuration: no file, clock,
	// environment variable or remote API. The engine's fast path trusts
	// such a provider to give the same answers to the same requests, and
	// skips its calls (Cairn's own providers declare it). Over gRPC it
	// travels as a response header of GetPluginInfo that Pulumi's engine
	// ignores (rpc.InputsOnlyHeader).
	InputsOnly bool
}

// GetSchemaRequest asks for a package schema.
type GetSchemaRequest struct {
	Version int
}

// CheckRequest validates inputs (or provider configuration, for CheckConfig).
type CheckRequest struct {
	URN  resource.URN
	Name string
	Type string
	Olds resource.Map // last recorded inputs, nil if none
	News resource.Map // new inputs; may contain unknowns
	// Seed derives the resource's random seed: 32 bytes, the same for the
	// resource throughout a deployment and the preview before it; nil when
	// there is none. Deriving it may need the stack's secret key, so a
	// provider asks for it (RandomSeed) only when it uses it.
	Seed func() ([]byte, error)
}

// RandomSeed returns the request's random seed, or nil if it has none.
func (r CheckRequest) RandomSeed() ([]byte, error) {
	if r.Seed == nil {
		return nil, nil
	}
	return r.Seed()
}

// CheckFailure is one validation failure of a property.
type CheckFailure struct {
	Property string
	Reason   string
}

// CheckResponse holds checked inputs with defaults applied, or failures.
type CheckResponse struct {
	Inputs   resource.Map
	Failures []CheckFailure
}

// DiffChanges tells whether a diff found changes.
type DiffChanges int

// The possible answers of a diff.
const (
	DiffUnknown DiffChanges = iota // the provider cannot tell; the engine diffs inputs itself
	DiffNone
	DiffSome
)

// DiffRequest compares a resource's recorded state with new inputs (or a
// provider's old and new configuration, for DiffConfig).
type DiffRequest struct {
	URN           resource.URN
	Name          string
	Type          string
	ID            resource.ID
	OldInputs     resource.Map
	OldOutputs    resource.Map
	News          resource.Map
	IgnoreChanges []string
}

// DiffResponse describes the differences and what they require.
type DiffResponse struct {
	Changes             DiffChanges
	ReplaceKeys         []string // top-level properties whose change forces replacement
	StableKeys          []string // outputs guaranteed not to change
	ChangedKeys         []string // top-level properties that changed
	DetailedDiff        resource.DetailedDiff
	DeleteBeforeReplace bool
}

// ConfigureRequest configures a provider instance with checked configuration,
// which may contain unknowns during a preview.
type ConfigureRequest struct {
	URN    resource.URN
	Name   string
	Type   string
	ID     resource.ID
	Inputs resource.Map
}

// ConfigureResponse tells which protocol features the provider accepts.
type ConfigureResponse struct {
	AcceptSecrets   bool
	AcceptResources bool
	AcceptOutputs   bool
	SupportsPreview bool
}

// CreateRequest creates a resource (or computes its hypothetical state when
// Preview is set).
type CreateRequest struct {
	URN     resource.URN
	Name    string
	Type    string
	Inputs  resource.Map
	Timeout time.Duration
	Preview bool
}

// CreateResponse holds the new resource's ID and outputs.
type CreateResponse struct {
	ID      resource.ID
	Outputs resource.Map
}

// ReadRequest reads a resource's current inputs and state by ID.
type ReadRequest struct {
	URN     resource.URN
	Name    string
	Type    string
	ID      resource.ID
	Inputs  resource.Map // last recorded inputs; nil on import
	Outputs resource.Map // last recorded outputs; nil on import and get
	Timeout time.Duration
}

// ReadResponse holds what Read found. An empty ID means the resource no
// longer exists.
type ReadResponse struct {
	ID      resource.ID
	Inputs  resource.Map
	Outputs resource.Map
}

// UpdateRequest updates a resource in place.
type UpdateRequest struct {
	URN           resource.URN
	Name          string
	Type          string
	ID            resource.ID
	OldInputs     resource.Map
	OldOutputs    resource.Map
	News          resource.Map
	Timeout       time.Duration
	IgnoreChanges []string
	Preview       bool
}

// UpdateResponse holds the updated outputs.
type UpdateResponse struct {
	Outputs resource.Map
}

// DeleteRequest deletes a resource.
type DeleteRequest struct {
	URN     resource.URN
	Name    string
	Type    string
	ID      resource.ID
	Inputs  resource.Map
	Outputs resource.Map
	Timeout time.Duration
}

// InvokeRequest calls a provider function.
type InvokeRequest struct {
	Token   string
	Args    resource.Map
	Preview bool
}

// InvokeResponse holds a function's result or its failures.
type InvokeResponse struct {
	Return   resource.Map
	Failures []CheckFailure
}

// CallRequest calls a method of a component resource.
type CallRequest struct {
	Token            string
	Args             resource.Map
	ArgDependencies  map[string][]resource.URN
	Project          string
	Stack            string
	Config           map[string]string
	ConfigSecretKeys []string
	DryRun           bool
	Parallel         int
	MonitorAddress   string
}

// CallResponse holds a method's result.
type CallResponse struct {
	Return             resource.Map
	ReturnDependencies map[string][]resource.URN
	Failures           []CheckFailure
}

// ConstructRequest asks a provider to construct a component resource by
// registering its children on the engine's monitor at MonitorAddress.
type ConstructRequest struct {
	Project                 string
	Stack                   string
	Config                  map[string]string
	ConfigSecretKeys        []string
	DryRun                  bool
	Parallel                int
	MonitorAddress          string
	Type                    string
	Name                    string
	Parent                  resource.URN
	Inputs                  resource.Map
	InputDependencies       map[string][]resource.URN
	Providers               map[string]string
	Protect                 bool
	Dependencies            []resource.URN
	Aliases                 []resource.URN
	AdditionalSecretOutputs []string
	CustomTimeouts          resource.CustomTimeouts
	DeletedWith             resource.URN
	DeleteBeforeReplace     bool
	IgnoreChanges           []string
	ReplaceOnChanges        []string
	RetainOnDelete          bool
}

// ConstructResponse holds the constructed component's URN and outputs.
type ConstructResponse struct {
	URN                resource.URN
	Outputs            resource.Map
	OutputDependencies map[string][]resource.URN
}

// ParameterizeRequest parameterizes a provider, either from command-line
// arguments or from a value embedded in an SDK.
type ParameterizeRequest struct {
	Args    []string
	Name    string
	Version string
	Value   []byte
}

// ParameterizeResponse names the package the provider now serves.
type ParameterizeResponse struct {
	Name    string
	Version string
}

// Mover is a provider that takes over the state of a resource of another
// type, as Terraform's moved blocks between resource types ask of the new
// type's provider (MoveResourceState). A provider that cannot answers
// ErrNotImplemented.
type Mover interface {
	Move(ctx context.Context, req MoveRequest) (MoveResponse, error)
}

// MoveRequest asks for the state, as a resource of type Type, of the
// resource recorded as SourceType by a provider of SourcePackage.
type MoveRequest struct {
	URN        resource.URN
	Type       string
	SourceType string
	// SourcePackage is the package of the source's provider, with its
	// parameterization (Value) if it has one.
	SourcePackage ParameterizeRequest
	SourceInputs  resource.Map
	SourceOutputs resource.Map
}

// MoveResponse is the state of the moved resource as its new type.
type MoveResponse struct {
	Inputs  resource.Map
	Outputs resource.Map
}

// InitError is returned by Create, Update or Read when the resource was
// created (or exists) but could not be fully initialised: the engine records
// the ID and outputs together with the reasons, and retries on the next update.
// With Taint, a Create's object is recorded tainted instead, and the next
// update replaces it, as Terraform does with an object whose create failed.
type InitError struct {
	ID      resource.ID
	Outputs resource.Map
	Inputs  resource.Map
	Reasons []string
	Taint   bool
}

func (e *InitError) Error() string {
	if len(e.Reasons) == 1 {
		return e.Reasons[0]
	}
	return fmt.Sprintf("resource partially initialised: %v", e.Reasons)
}

// ErrOutcomeUnknown is wrapped by a provider's error when whether the
// operation happened cannot be told (the plugin crashed or stopped
// answering). The engine then leaves the operation pending in the state, as
// if it had been interrupted, instead of recording that it failed.
var ErrOutcomeUnknown = errors.New("the outcome of the operation is unknown")

// ErrNotImplemented is returned by providers for methods they do not offer.
var ErrNotImplemented = errors.New("not implemented by this provider")

// Unimplemented can be embedded in a provider to answer every optional method
// with ErrNotImplemented (or the documented neutral answer).
type Unimplemented struct{}

// GetSchema returns ErrNotImplemented.
func (Unimplemented) GetSchema(context.Context, GetSchemaRequest) ([]byte, error) {
	return nil, ErrNotImplemented
}

// CheckConfig accepts the configuration as given.
func (Unimplemented) CheckConfig(_ context.Context, req CheckRequest) (CheckResponse, error) {
	return CheckResponse{Inputs: req.News}, nil
}

// DiffConfig lets the engine diff the configuration itself.
func (Unimplemented) DiffConfig(context.Context, DiffRequest) (DiffResponse, error) {
	return DiffResponse{Changes: DiffUnknown}, nil
}

// Configure accepts every protocol feature.
func (Unimplemented) Configure(context.Context, ConfigureRequest) (ConfigureResponse, error) {
	return ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, nil
}

// Read returns ErrNotImplemented.
func (Unimplemented) Read(context.Context, ReadRequest) (ReadResponse, error) {
	return ReadResponse{}, ErrNotImplemented
}

// Invoke returns ErrNotImplemented.
func (Unimplemented) Invoke(context.Context, InvokeRequest) (InvokeResponse, error) {
	return InvokeResponse{}, ErrNotImplemented
}

// Call returns ErrNotImplemented.
func (Unimplemented) Call(context.Context, CallRequest) (CallResponse, error) {
	return CallResponse{}, ErrNotImplemented
}

// Construct returns ErrNotImplemented.
func (Unimplemented) Construct(context.Context, ConstructRequest) (ConstructResponse, error) {
	return ConstructResponse{}, ErrNotImplemented
}

// Parameterize returns ErrNotImplemented.
func (Unimplemented) Parameterize(context.Context, ParameterizeRequest) (ParameterizeResponse, error) {
	return ParameterizeResponse{}, ErrNotImplemented
}

// SignalCancellation does nothing.
func (Unimplemented) SignalCancellation(context.Context) error { return nil }

// Close does nothing.
func (Unimplemented) Close() error { return nil }
