package display

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/state"
)

// PreviewDigest is the JSON document `preview --json` and `up --json`
// print, with the field names of Pulumi's preview digest.
type PreviewDigest struct {
	// Config is the stack configuration, secrets blinded.
	Config map[string]string `json:"config,omitempty"`
	// Steps are the logical steps, dependencies first, then in program
	// order.
	Steps []PreviewStep `json:"steps,omitempty"`
	// Diagnostics are the messages of the deployment, debug ones left out.
	Diagnostics []PreviewDiagnostic `json:"diagnostics,omitempty"`
	// Duration is how long the deployment took, in nanoseconds.
	Duration time.Duration `json:"duration,omitempty"`
	// ChangeSummary counts the resources per operation.
	ChangeSummary map[deploy.Op]int `json:"changeSummary,omitempty"`
	// PolicyEvents are the policy violations, mandatory ones first.
	PolicyEvents []policy.Event `json:"policyEvents,omitempty"`
}

// PreviewStep is one step of a PreviewDigest. States are in the
// checkpoint's form, as last reported (after an update, with the
// provider's outputs), secrets shown as "[secret]" unless revealed and
// unknowns as the unknown sentinel.
type PreviewStep struct {
	Op             deploy.Op               `json:"op"`
	URN            resource.URN            `json:"urn"`
	Provider       string                  `json:"provider,omitempty"`
	OldState       *state.ResourceV3       `json:"oldState,omitempty"`
	NewState       *state.ResourceV3       `json:"newState,omitempty"`
	DiffReasons    []string                `json:"diffReasons,omitempty"`
	ReplaceReasons []string                `json:"replaceReasons,omitempty"`
	DetailedDiff   map[string]PropertyDiff `json:"detailedDiff"`
}

// PropertyDiff is the change at one property path: its kind ("add",
// "update-replace", ...) and whether the old value is an input.
type PropertyDiff struct {
	Kind      string `json:"kind"`
	InputDiff bool   `json:"inputDiff"`
}

// PreviewDiagnostic is one diagnostic of a PreviewDigest. As in Pulumi,
// the message begins with its severity ("error: ") for warnings and errors
// and ends with a newline.
type PreviewDiagnostic struct {
	URN      resource.URN `json:"urn,omitempty"`
	Prefix   string       `json:"prefix,omitempty"`
	Message  string       `json:"message,omitempty"`
	Severity string       `json:"severity,omitempty"`
}

// jsonRenderer prints the run's PreviewDigest on close.
type jsonRenderer struct {
	r *run
	w *errWriter
}

func (j *jsonRenderer) event(deploy.Event) {}

func (j *jsonRenderer) close() {
	enc := json.NewEncoder(j.w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	_ = enc.Encode(j.r.digest())
}

// digest builds the run's PreviewDigest. Steps are the logical ones that
// show (see run.shows), and the stack's always, in the order of
// run.ordered.
func (r *run) digest() *PreviewDigest {
	d := &PreviewDigest{Config: r.digestConfig(), Duration: r.duration(), PolicyEvents: r.digestPolicies()}
	if !r.failedPreview() {
		d.ChangeSummary = r.counts()
	}
	for _, s := range r.ordered() {
		e := &s.event
		if !r.shows(e) && e.URN.Type() != resource.RootStackType {
			continue
		}
		step := PreviewStep{Op: e.Op, URN: e.URN, Provider: e.Provider, DiffReasons: e.Diffs, ReplaceReasons: e.Keys,
			OldState: r.jsonState(e.Old), NewState: r.jsonState(e.New)}
		if e.DetailedDiff != nil {
			step.DetailedDiff = make(map[string]PropertyDiff, len(e.DetailedDiff))
			for p, pd := range e.DetailedDiff {
				step.DetailedDiff[p] = PropertyDiff{Kind: pd.Kind.String(), InputDiff: pd.InputDiff}
			}
		}
		d.Steps = append(d.Steps, step)
	}
	for _, g := range r.diagGroups() {
		for _, diag := range g.diags {
			msg := strings.TrimRight(diag.Message, "\n") + "\n"
			if diag.Severity >= deploy.SeverityWarning {
				msg = diag.Severity.String() + ": " + msg
			}
			d.Diagnostics = append(d.Diagnostics, PreviewDiagnostic{URN: diag.URN, Message: msg, Severity: diag.Severity.String()})
		}
	}
	return d
}

// digestConfig is the configuration the digest reports: the caller's, or
// else the prelude's, secrets blinded unless shown.
func (r *run) digestConfig() map[string]string {
	if r.opts.Config != nil || r.config == nil {
		return r.opts.Config
	}
	out, secretKeys, err := provider.ConfigStrings(r.config)
	if err != nil {
		return nil
	}
	if !r.opts.ShowSecrets {
		for _, k := range secretKeys {
			out[k] = secretText
		}
	}
	return out
}

// jsonState encodes a state for the digest; a state that cannot be
// encoded is left out, as Pulumi does.
func (r *run) jsonState(s *resource.State) *state.ResourceV3 {
	if s == nil {
		return nil
	}
	c := s.Copy()
	c.Inputs, c.Outputs = r.blindMap(c.Inputs), r.blindMap(c.Outputs)
	c.ReplacementTrigger = r.blind(c.ReplacementTrigger)
	out, err := state.NewEncoder(state.EncodeOptions{}).Resource(c)
	if err != nil {
		return nil
	}
	return out
}

func (r *run) blindMap(m resource.Map) resource.Map {
	if m == nil {
		return nil
	}
	out := make(resource.Map, len(m))
	for k, v := range m {
		out[k] = r.blind(v)
	}
	return out
}

// blind returns v with its secrets as "[secret]", or revealed when secrets
// are shown, and its outputs resolved.
func (r *run) blind(v resource.Value) resource.Value {
	if r.opts.ShowSecrets {
		return v.Unsecret()
	}
	v = v.Resolve()
	switch {
	case v.IsSecret():
		return resource.String(secretText)
	case v.IsObject():
		return resource.Object(r.blindMap(v.ObjectValue()))
	case v.IsArray():
		elems := make([]resource.Value, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			elems[i] = r.blind(e)
		}
		return resource.Array(elems...)
	}
	return v
}
