// Package yaml reads Pulumi YAML programs into Cairn's program model
// (package eval). A project is a folder with a Pulumi.yaml; its program is
// in Main.yaml (in the folder named by main:, if any, or that folder's own
// Pulumi.yaml) or inline in Pulumi.yaml, and every *.cairn.yaml beside it
// adds to the same namespace.
//
// Plain Pulumi YAML keeps its meaning: config, variables, resources (type,
// name, properties, options, get, defaultProvider) and outputs; ${a.b[0]}
// property accesses and $$ escapes; every fn:: builtin. Cairn goes beyond
// it: inside ${…} any HCL expression is allowed (operators, conditionals,
// function calls from the shared library, for expressions, dynamic
// indexing); fn::fromJSON; the resource options count and forEach; YAML
// anchors, aliases and merge keys.
//
// Every node keeps its source range, so diagnostics name the file, line and
// column, and render with eval.DiagnosticWriter like HCL's:
//
//	prog, diags := yaml.Load(dir, yaml.Options{Schemas: eval.ProviderSchemas(host)})
//	if diags.HasErrors() {
//		w := &eval.DiagnosticWriter{Files: prog.Files, Width: 78, Color: true}
//		w.WriteDiagnostics(os.Stderr, diags)
//		return
//	}
//	res, err := deploy.Update(ctx, deploy.Options{Program: prog, ...}, base)
package yaml
