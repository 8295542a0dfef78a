// Package policy declares the analyzers the engine consults while it plans a
// deployment, as Pulumi's policy packs are: each resource's inputs, once its
// provider has checked them and before they are diffed, go to every analyzer
// (Analyze), and the whole planned stack goes to them once the program has
// finished (AnalyzeStack). An analyzer answers with violations, each at an
// enforcement level: advisory (a warning), mandatory (the resource is not
// changed and the operation fails) or disabled (ignored).
//
// Pulumi policy packs implement Analyzer over gRPC (plugins/analyzer); rules
// written in YAML or HCL implement it in-process (eval).
package policy

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Level is a policy's enforcement level, spelled as in Pulumi.
type Level string

// The enforcement levels.
const (
	Advisory  Level = "advisory"
	Mandatory Level = "mandatory"
	Disabled  Level = "disabled"
)

// ParseLevel reads an enforcement level.
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Advisory, Mandatory, Disabled:
		return l, nil
	}
	return "", fmt.Errorf("%q is not an enforcement level; use advisory, mandatory or disabled", s)
}

// Resource is what an analyzer sees of a resource: its checked inputs (which
// may hold unknowns in a preview, and secrets) and its options.
type Resource struct {
	URN      resource.URN
	Type     string
	Name     string
	Custom   bool
	Parent   resource.URN
	Provider string // the provider reference, "" for components
	// ProviderInputs are the configuration of the resource's provider.
	ProviderInputs resource.Map
	Inputs         resource.Map
	// Options the program set.
	Protect              bool
	IgnoreChanges        []string
	Dependencies         []resource.URN
	PropertyDependencies map[string][]resource.URN
}

// Violation is a policy a resource (or the stack, when URN is empty) does
// not comply with.
type Violation struct {
	Pack        string // the policy pack
	Policy      string // the policy's name in its pack
	Description string
	Message     string
	URN         resource.URN
	Level       Level
}

// Event is a violation in the JSON shape of Pulumi's policy events, as
// `--json` output and a stack's history hold it.
type Event struct {
	ResourceURN      resource.URN `json:"resourceUrn,omitempty"`
	Message          string       `json:"message"`
	PolicyName       string       `json:"policyName"`
	PolicyPackName   string       `json:"policyPackName"`
	EnforcementLevel Level        `json:"enforcementLevel"`
}

// Event returns the violation as an Event.
func (v Violation) Event() Event {
	return Event{ResourceURN: v.URN, Message: v.Message, PolicyName: v.Policy, PolicyPackName: v.Pack, EnforcementLevel: v.Level}
}

// Analyzer checks resources against the policies of one pack. Its methods
// may be called from many goroutines at once.
type Analyzer interface {
	// Name is the name of the policy pack.
	Name() string
	// Analyze checks one resource.
	Analyze(ctx context.Context, r Resource) ([]Violation, error)
	// AnalyzeStack checks every resource the program declared.
	AnalyzeStack(ctx context.Context, rs []Resource) ([]Violation, error)
	// Close releases what the analyzer holds (a plugin process).
	Close() error
}
