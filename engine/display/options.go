package display

import (
	"io"

	"github.com/cairn-iac/cairn/engine/secrets"
)

// Operation names what a deployment does, for the header.
type Operation string

// The operations a display reports on.
const (
	OperationPreview Operation = "preview"
	OperationUpdate  Operation = "update"
	OperationRefresh Operation = "refresh"
	OperationDestroy Operation = "destroy"
	OperationImport  Operation = "import"
)

// Options configure a Display. Of the output modes, JSON wins over
// Markdown, and both over Interactive; with none of them the display writes
// one line per event.
type Options struct {
	// Out receives the output; nil discards it.
	Out io.Writer
	// Interactive draws a live tree of resources that repaints in place
	// (for a terminal); otherwise lines are written as events arrive.
	Interactive bool
	// Color colours the progress and diffs (see ColorEnabled). JSON and
	// Markdown are never coloured.
	Color bool
	// ShowDiffs shows every property of a changed resource, not only the
	// changed ones (--diff).
	ShowDiffs bool
	// ShowSames shows resources that do not change.
	ShowSames bool
	// ShowSecrets shows secret values instead of "[secret]".
	ShowSecrets bool
	// Masker, unless ShowSecrets, replaces the secrets it knows with
	// "[secret]" in everything the display writes: diagnostics, errors and
	// values that hold a secret without being marked as one.
	Masker *secrets.Masker
	// JSON writes one JSON document (a PreviewDigest) when the display is
	// closed.
	JSON bool
	// Markdown writes a pull-request comment when the display is closed.
	Markdown bool
	// Operation, Stack and Project name what runs, for the header. A
	// preview is recognised by OperationPreview or by the events.
	Operation Operation
	Stack     string
	Project   string
	// Config is the stack configuration the JSON document reports, secrets
	// already blinded by the caller.
	Config map[string]string
	// Width is the terminal width in columns for the interactive tree; 0
	// takes it from COLUMNS, then from the terminal, then 80.
	Width int
}
