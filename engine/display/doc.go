// Package display turns the events of a deployment into what people and
// tools read: progress, diffs, diagnostics and a summary on a terminal or in
// a log, Pulumi's `preview --json` document, a Markdown comment for a
// pull request, and the dependency graph of a stack in DOT or Mermaid.
//
// A Display is the deploy.Options.Events sink. Its output mode is chosen by
// Options: JSON and Markdown are written whole when the display is closed;
// Interactive draws a live tree of resources (children under their parent)
// that repaints in place at most ten times a second and leaves a final
// rendering on screen; otherwise a line is written per step event as it
// arrives. Every mode shows a diff per changed resource: "+" create, "~"
// update with old → new per property, "+-" replace with the properties that
// forced it, "-" delete, "=" import; secrets as [secret] unless shown,
// unknowns as (known after apply), and never the paths a resource hides
// from diffs. The text of a secret is masked wherever it turns up, names
// and IDs included; as the state keeps those in plain text, a resource
// whose name or ID holds a secret's text gets a warning saying so.
//
//	color, err := display.ColorEnabled(flags.Color, isTTY)
//	d := display.New(display.Options{
//		Out: os.Stdout, Interactive: isTTY, Color: color, ShowDiffs: flags.Diff,
//		JSON: flags.JSON, Operation: display.OperationPreview, Stack: "dev", Project: "web",
//	})
//	res, err := deploy.Update(ctx, deploy.Options{DryRun: true, Events: d.Handle /* ... */}, base)
//	if cerr := d.Close(); err == nil {
//		err = cerr
//	}
//
// The graph of a stack needs no display:
//
//	err := display.WriteDOT(os.Stdout, snapshot) // or WriteMermaid
package display
