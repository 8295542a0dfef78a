// Package funcs is the function library of Cairn programs: the functions an
// HCL program calls, and that the HCL-syntax expressions inside a YAML
// program's ${…} call. It holds the Terraform function library (the go-cty
// standard library under Terraform's names, plus the functions Terraform
// adds), Pulumi's asset, archive and resource functions, and the functions
// Pulumi YAML's builtins need (fromjson, tojson, secret, unsecret,
// singleornone, select).
//
// Every function declares how it treats unknown, null and marked arguments.
// Unknown arguments give unknown results, so a preview can evaluate a
// program whose resources do not exist yet; a result computed from a secret
// (a value marked with values.Secret) is secret, and one computed from a
// resource's outputs carries its values.Dep mark. During a preview the
// impure functions (timestamp, uuid, bcrypt) return unknown values.
//
// File functions resolve relative paths against Options.BaseDir and refuse
// a relative path that leaves Options.RootDir; an absolute path may name any
// file.
//
// Usage, evaluating an HCL expression:
//
//	ctx := &hcl.EvalContext{
//		Variables: map[string]cty.Value{"name": cty.StringVal("web")},
//		Functions: funcs.Functions(funcs.Options{BaseDir: dir, RootDir: dir}),
//	}
//	expr, diags := hclsyntax.ParseExpression([]byte(`upper(name)`), "main.hcl", hcl.InitialPos)
//	if diags.HasErrors() {
//		return diags
//	}
//	v, diags := expr.Value(ctx) // cty.StringVal("WEB")
package funcs
