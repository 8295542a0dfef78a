package display

import (
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// plainSecrets warns, once per resource, when a resource's name or ID holds
// the text of a secret. The display masks that text as it masks any other,
// but the state keeps names (in URNs) and IDs in plain text: without the
// warning, the mask would suggest the secret is hidden there too.
type plainSecrets map[resource.URN]bool

// warning returns the warning for e, if it is the first step of a resource
// whose name or ID m masks.
func (w plainSecrets) warning(e deploy.Event, m *secrets.Masker) (deploy.DiagEvent, bool) {
	s, ok := e.(deploy.StepEvent)
	if !ok || m == nil || w[s.URN] {
		return deploy.DiagEvent{}, false
	}
	masked := func(text string) bool { return m.Mask(text) != text }
	var msg string
	switch st := stateOf(&s); {
	case masked(s.URN.Name()):
		msg = "Its name holds the text of a secret, shown here as " + secrets.Masked + ", but a name is part of the resource's URN, " +
			"which the state keeps in plain text. Give it a name (or forEach key) that is not secret."
	case st != nil && masked(string(st.ID)):
		msg = "Its ID holds the text of a secret, shown here as " + secrets.Masked + ", but the state keeps IDs in plain text. " +
			"Its provider likely made the ID of a secret input: give that input a value that is not secret or, for a random " +
			"resource created before its input turned secret, replace it (cairn up --replace) to draw an opaque ID."
	default:
		return deploy.DiagEvent{}, false
	}
	w[s.URN] = true
	return deploy.DiagEvent{URN: s.URN, Severity: deploy.SeverityWarning, Message: msg}, true
}
