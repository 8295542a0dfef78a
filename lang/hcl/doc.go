// Package hcl reads HCL programs, written the way Terraform configurations
// are, into Cairn's program model (package eval). A project with runtime:
// hcl is every *.hcl file beside its Pulumi.yaml, or in the folder its
// main: names; module blocks call local modules, folders of *.hcl files of
// their own.
//
// The blocks are Terraform's: variable (values from the stack's
// configuration, <project>:<name>), locals, output, resource, data (a
// provider function), provider (a provider resource; without an alias, the
// default provider of its package), module (a component resource whose
// children are the module's resources), moved (aliases), import, removed
// (with lifecycle { destroy = false }, the resource leaves the stack without
// being deleted) and check (failed assertions are warnings); a pulumi block
// gives package versions (required_providers). Type labels are full type
// tokens or Terraform-style names (random_pet for
// random:index/randomPet:RandomPet), resolved through the package schemas;
// arguments, nested blocks and references to outputs are written in
// snake_case and mapped to the schemas' camelCase names.
//
// A terraform block's required_providers declare Terraform providers
// (source = "hashicorp/null", version = "~> 3.2"): their packages are served by the plugin
// Options.TerraformProviders names, parameterized with the source and
// version constraints; their resource, data and provider blocks are
// decoded with the provider's own schema (attribute names as they are,
// nested blocks only where it declares them, by its nesting modes), and
// provider::<pkg>::<name>(…) calls their functions.
//
// Replacements delete the old resource before they create the new one, as
// Terraform does; lifecycle { create_before_destroy = true } creates first,
// which is the Pulumi engine's own default. Options without a Terraform
// twin go in a nested pulumi block: protect, retain_on_delete, deleted_with,
// replace_on_changes, additional_secret_outputs, aliases, custom_timeouts,
// import_id, version, plugin_download_url, name, parent, hide_diffs,
// replace_with and replacement_trigger. docs/hcl.md describes the language.
//
// Diagnostics are hcl.Diagnostics with source ranges. Imported as langhcl
// beside hashicorp's hcl:
//
//	prog, diags := langhcl.Load(dir, langhcl.Options{Schemas: eval.ProviderSchemas(host), Project: project.Name})
//	if diags.HasErrors() {
//		w := &eval.DiagnosticWriter{Files: prog.Files, Width: 78, Color: true}
//		w.WriteDiagnostics(os.Stderr, diags)
//		return
//	}
//	res, err := deploy.Update(ctx, deploy.Options{Program: prog, ...}, base)
package hcl
