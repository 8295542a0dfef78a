// Package hcl reads HCL programs, written the way Terraform configurations
// are, into Cairn's program model (package eval). A project with runtime:
// hcl is every *.tf and *.tf.json file (or OpenTofu's *.tofu standing in
// for one) of its folder (or of the folder its main: names) or, when it
// has none, every *.hcl file; override files (override.tf,
// *_override.tf) merge into the others as Terraform merges them. Module
// blocks call modules, folders read by the same rules: local ones, and
// through Options.Modules those it installs (registry, git, http(s)).
// The root module's variables also take values from Terraform's variable
// definitions (.tfvars files, TF_VAR_ variables, -var and -var-file; see
// Options.Vars), the stack's configuration coming between the files and
// the command line.
//
// The blocks are Terraform's: variable (values from the stack's
// configuration, <project>:<name>), locals, output, resource, data (a
// provider function), ephemeral (an ephemeral resource: an invoke opened in
// each operation, its value ephemeral), provider (a provider resource;
// without an alias, the default provider of its package), module (a
// component resource whose children are the module's resources), moved
// (aliases), import, removed
// (with lifecycle { destroy = false }, the resource leaves the stack without
// being deleted) and check (failed assertions are warnings); a pulumi block
// gives package versions (required_providers). Type labels are full type
// tokens or Terraform-style names (random_pet for
// random:index/randomPet:RandomPet), resolved through the package schemas;
// arguments, nested blocks and references to outputs are written in
// snake_case and mapped to the schemas' camelCase names.
//
// Resources and data sources take preconditions and postconditions (with
// self), outputs preconditions; terraform.workspace is the stack.
// Resources take local-exec provisioners (see provisioner.go); file and
// remote-exec ones and connection blocks are errors. A data
// source that depends on a resource that would change is read during the
// update only (Invoke.DeferChanged), as Terraform defers it.
//
// A terraform block's required_version must allow LanguageVersion; its
// backend is not used (a warning says how to import its state). Its
// required_providers declare Terraform providers
// (source = "hashicorp/null", version = "~> 3.2"): their packages are served by the plugin
// Options.TerraformProviders names, parameterized with the source and
// version constraints; their resource, data and provider blocks are
// decoded with the provider's own schema (attribute names as they are,
// nested blocks only where it declares them, by its nesting modes), and
// provider::<pkg>::<name>(…) calls their functions.
//
// Replacements delete the old resource before they create the new one, as
// Terraform does; lifecycle { create_before_destroy = true } creates first,
// which is the Pulumi engine's own default, and so do the resources it
// depends on, as Terraform propagates it. Options without a Terraform
// twin go in a nested pulumi block: protect, retain_on_delete, deleted_with,
// replace_on_changes, additional_secret_outputs, aliases, custom_timeouts,
// import_id, version, plugin_download_url, name, parent, hide_diffs,
// replace_with, replacement_trigger and, on a provider, env_var_mappings.
// docs/hcl.md describes the language.
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
