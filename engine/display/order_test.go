package display

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// TestOutputOrderIgnoresEventOrder renders a preview whose steps arrive in
// two different orders: every mode must print the same.
func TestOutputOrderIgnoresEventOrder(t *testing.T) {
	events := fxPreview()
	reversed := reverseResources(events)
	for _, opts := range []Options{{}, {JSON: true}, {Markdown: true}} {
		opts.Operation = OperationPreview
		got, want := renderEvents(t, opts, reversed), renderEvents(t, opts, events)
		if got != want {
			t.Errorf("JSON %v, Markdown %v: the order of events changes the output:\n%s\n--- versus\n%s", opts.JSON, opts.Markdown, got, want)
		}
	}
}

// TestOrderedDependenciesThenProgram checks that a resource comes after
// what it depends on even when the program declares it first, and that
// otherwise the program's order wins over names.
func TestOrderedDependenciesThenProgram(t *testing.T) {
	at := func(urn resource.URN, pos string, deps ...resource.URN) deploy.Event {
		s := &resource.State{URN: urn, Type: urn.Type(), Parent: fxRoot, Dependencies: deps, SourcePosition: "project:///Pulumi.yaml#" + pos}
		return deploy.StepEvent{Phase: deploy.StepDone, Op: deploy.OpCreate, URN: urn, New: s, Logical: true, Preview: true}
	}
	r := newRun(Options{Operation: OperationPreview}, func() time.Time { return fxTime })
	for _, e := range []deploy.Event{
		at(fxAssets, "20,3"),
		at(fxDB, "2,3", fxToken),
		at(fxToken, "9,3"),
		at(fxAlerts, "10,3"),
		deploy.StepEvent{Phase: deploy.StepDone, Op: deploy.OpCreate, URN: fxRoot, New: &resource.State{URN: fxRoot, Type: resource.RootStackType}, Logical: true, Preview: true},
	} {
		r.record(e)
	}
	var got []string
	for _, s := range r.ordered() {
		got = append(got, s.event.URN.Name())
	}
	want := []string{"web-dev", "token", "db", "alerts", "assets"}
	if !slices.Equal(got, want) {
		t.Errorf("ordered = %v, want %v", got, want)
	}
}

// TestDefaultProvidersHidden checks that default providers are neither
// shown nor counted, unless they fail, and that explicit providers are.
func TestDefaultProvidersHidden(t *testing.T) {
	explicit := resource.NewURN(fxStack, fxProject, "", "pulumi:providers:aws", "east")
	step := func(urn resource.URN, phase deploy.StepPhase, errText string) deploy.Event {
		return deploy.StepEvent{Phase: phase, Op: deploy.OpCreate, URN: urn, Type: urn.Type(), Logical: true, Preview: true,
			New: &resource.State{URN: urn, Type: urn.Type(), Custom: true}, Error: errText}
	}
	events := []deploy.Event{step(fxProvider, deploy.StepDone, ""), step(explicit, deploy.StepDone, ""),
		deploy.SummaryEvent{Preview: true, Changes: map[deploy.Op]int{deploy.OpCreate: 2}}}
	for _, opts := range []Options{{}, {JSON: true}, {Markdown: true}} {
		opts.Operation = OperationPreview
		got := renderEvents(t, opts, events)
		if counted := map[bool]string{false: "1 to create", true: `"create": 1`}[opts.JSON]; !opts.Markdown && !strings.Contains(got, counted) {
			t.Errorf("JSON %v: the counts lack %q:\n%s", opts.JSON, counted, got)
		}
		if strings.Contains(got, "::default") || strings.Contains(got, "aws default") || strings.Contains(got, "<b>default</b>") {
			t.Errorf("JSON %v, Markdown %v: a default provider shows:\n%s", opts.JSON, opts.Markdown, got)
		}
		if !strings.Contains(got, "east") {
			t.Errorf("JSON %v, Markdown %v: the explicit provider is missing:\n%s", opts.JSON, opts.Markdown, got)
		}
	}
	got := renderEvents(t, Options{Operation: OperationPreview}, []deploy.Event{step(fxProvider, deploy.StepFailed, "no credentials")})
	if !strings.Contains(got, "pulumi:providers:aws default creating failed: no credentials") {
		t.Errorf("a failed default provider does not show:\n%s", got)
	}
}

// reverseResources returns events with the resources in reverse order of
// their first event, each resource's events and the other events in the
// order they had.
func reverseResources(events []deploy.Event) []deploy.Event {
	var urns []resource.URN
	byURN := map[resource.URN][]deploy.Event{}
	var others []deploy.Event
	for _, e := range events {
		se, ok := e.(deploy.StepEvent)
		if !ok {
			others = append(others, e)
			continue
		}
		if _, seen := byURN[se.URN]; !seen {
			urns = append(urns, se.URN)
		}
		byURN[se.URN] = append(byURN[se.URN], e)
	}
	slices.Reverse(urns)
	var out []deploy.Event
	for _, u := range urns {
		out = append(out, byURN[u]...)
	}
	return append(out, others...)
}
