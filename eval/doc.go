// Package eval is Cairn's evaluator: the program model both languages
// produce, its dependency graph, and its concurrent evaluation against the
// engine's resource monitor.
//
// A front end (lang/yaml, lang/hcl) builds a Program: a root Scope of
// Nodes (Config inputs, Local values, Resources, Invokes, Modules, Checks,
// Removed resources and Outputs), each with its source ranges and its
// expressions as hcl.Expression, and a Resolver that tells what each
// traversal of those expressions names. Names are unique within a
// namespace (Decl.Namespace); the program's Dialect spells the schemas'
// property names the language's way for outputs (HCL's snake_case). Expressions are evaluated in go-cty with the function
// library of eval/funcs and the functions InvokeFunction and
// ReadFileFunction; the engine's concepts travel through cty as package
// values describes (unknowns, the Secret mark, Dep marks), and are
// converted at the monitor boundary only. Ephemeral values (of ephemeral
// Configs and Outputs, marked values.Ephemeral) never reach what is kept:
// the arguments of resources (but write-only ones) and invokes, count,
// forEach and outputs that are not ephemeral refuse them, a provider's
// configuration keeps them as secrets.
//
// Program implements deploy.Program. Run checks the program first (unknown
// names and cycles, naming both ends; types against the package schemas of
// Program.Schemas; missing configuration), then registers the stack
// resource, runs every node on its own goroutine as soon as the nodes (or,
// for a constant index such as web[0], the instances) it refers to are
// done, and registers the stack's outputs. Count and forEach expand
// resources, invokes and modules into instances named web[0] and
// web["key"]; an instance that refers to another node's instance by its own
// key (web[count.index]) waits for that instance only. Nothing secret may
// name anything, since the state keeps names (in URNs) and IDs in plain
// text: a secret forEach or key, name, import ID or read ID is an error at
// its expression, while a secret count and secret values under plain keys
// are allowed, as in Terraform. Configuration values
// are checked by their Validations; Moved former names become aliases;
// Removed resources are forgotten (Monitor.Forget). A node whose dependency failed fails silently, so that only
// root errors are reported; errors come back as a *DiagnosticsError.
//
//	prog := &eval.Program{
//		Root:    &eval.Scope{Nodes: nodes, Resolver: resolver, Dir: dir},
//		RootDir: dir,
//		Files:   files,
//		Schemas: eval.ProviderSchemas(host),
//	}
//	if diags := prog.Check(ctx, project, config); diags.HasErrors() {
//		w := &eval.DiagnosticWriter{Files: prog.Files, Width: 78, Color: true}
//		w.WriteDiagnostics(os.Stderr, diags) // the first 20, then how many more
//		return
//	}
//	res, err := deploy.Update(ctx, deploy.Options{Program: prog, Host: host, ...}, base)
package eval
