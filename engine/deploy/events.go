package deploy

import (
	"time"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// Op is the kind of a step, named as in Pulumi's JSON output.
type Op string

// The step operations.
const (
	OpSame                 Op = "same"
	OpCreate               Op = "create"
	OpUpdate               Op = "update"
	OpDelete               Op = "delete"
	OpReplace              Op = "replace"
	OpCreateReplacement    Op = "create-replacement"
	OpDeleteReplaced       Op = "delete-replaced"
	OpRead                 Op = "read"
	OpReadReplacement      Op = "read-replacement"
	OpRefresh              Op = "refresh"
	OpDiscard              Op = "discard" // leaves the state, its provider not called (Monitor.Forget)
	OpRemovePendingReplace Op = "remove-pending-replace"
	OpImport               Op = "import"
	OpImportReplacement    Op = "import-replacement"
)

// IsChange reports whether the op changes the stack (everything but same,
// read of an external resource, and refresh without changes).
func (op Op) IsChange() bool {
	switch op {
	case OpSame, OpRead, OpRefresh:
		return false
	}
	return true
}

// Event is something a deployment reports to its display.
type Event interface{ isEvent() }

// StepPhase is where a step is in its life.
type StepPhase int

// The phases of a step.
const (
	StepStarted StepPhase = iota
	StepDone
	StepFailed
	// StepSkipped reports a step that never started because the deployment
	// was cancelled (interrupted, or stopped by a failure) first.
	StepSkipped
)

// StepEvent reports a step starting, finishing, failing or being skipped.
type StepEvent struct {
	Phase    StepPhase
	Op       Op
	URN      resource.URN
	Type     string
	Provider string
	Old      *resource.State
	New      *resource.State
	// Keys are the properties that forced a replacement; Diffs the top-level
	// properties that changed; DetailedDiff the change per property path.
	Keys         []string
	Diffs        []string
	DetailedDiff resource.DetailedDiff
	Logical      bool // the step is the logical op the user sees (not a half of a replace)
	// Outcome is, for a finished refresh, what it found: same, update, or
	// delete when the resource is gone.
	Outcome  Op
	Preview  bool
	Error    string
	Duration time.Duration
}

// Severity ranks diagnostics.
type Severity int

// Diagnostic severities.
const (
	SeverityDebug Severity = iota
	SeverityInfo
	SeverityWarning
	SeverityError
)

var severityNames = [...]string{"debug", "info", "warning", "error"}

func (s Severity) String() string { return severityNames[s] }

// DiagEvent is a message about a resource (URN set) or the whole deployment.
type DiagEvent struct {
	URN      resource.URN
	Severity Severity
	Message  string
	// Ephemeral marks progress worth showing only while it is current;
	// displays do not keep it among the diagnostics.
	Ephemeral bool
}

// PreludeEvent begins a deployment. Displays must not depend on it: events
// may come from elsewhere.
type PreludeEvent struct {
	Preview bool
	// Config is the stack configuration the deployment runs with.
	Config map[string]resource.Value
}

// SummaryEvent ends a deployment.
type SummaryEvent struct {
	Preview  bool
	Changes  map[Op]int
	Duration time.Duration
	Error    string
	// Outputs are the outputs of the stack's root resource once a
	// deployment that is not a preview has ended; nil when it has none.
	Outputs resource.Map
}

// PolicyEvent reports a policy violation as soon as an analyzer finds it.
type PolicyEvent struct {
	Violation policy.Violation
	Preview   bool
}

func (PolicyEvent) isEvent()  {}
func (StepEvent) isEvent()    {}
func (DiagEvent) isEvent()    {}
func (PreludeEvent) isEvent() {}
func (SummaryEvent) isEvent() {}
