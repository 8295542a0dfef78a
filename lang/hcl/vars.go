package hcl

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// VarArg is a -var or -var-file argument of a command.
type VarArg struct {
	// File is set for -var-file: Value is then the file's path.
	File bool
	// Value is NAME=VALUE for -var.
	Value string
}

// String renders the argument as given on the command line.
func (a VarArg) String() string {
	if a.File {
		return "-var-file=" + a.Value
	}
	return "-var " + a.Value
}

// rootVariables gives the root module's variables the values Terraform's
// variable definitions give them, by Terraform's precedence, lowest first:
// TF_VAR_<name> in Options.Env, terraform.tfvars, terraform.tfvars.json,
// *.auto.tfvars and *.auto.tfvars.json in name order (all in the
// program's folder), then Options.Vars in the order given. The stack's
// configuration comes between the files and the command line: the
// command line's values are given over it, the others under it.
func (l *loader) rootVariables(root *module) {
	vars := map[string]*eval.Config{}
	for _, n := range root.nodes {
		if c, ok := n.(*eval.Config); ok {
			vars[c.Name] = c
		}
	}
	for _, kv := range l.opts.Env {
		name, raw, ok := strings.Cut(kv, "=")
		if name, found := strings.CutPrefix(name, "TF_VAR_"); ok && found && vars[name] != nil {
			vars[name].Under = &eval.GivenValue{Value: root.rawValue(name, raw, "TF_VAR_"+name), Source: "TF_VAR_" + name}
		}
	}
	files := []string{"terraform.tfvars", "terraform.tfvars.json"}
	auto, _ := filepath.Glob(filepath.Join(l.root, "*.auto.tfvars"))
	autoJSON, _ := filepath.Glob(filepath.Join(l.root, "*.auto.tfvars.json"))
	auto = append(auto, autoJSON...)
	sort.Strings(auto)
	for _, f := range auto {
		files = append(files, filepath.Base(f))
	}
	for _, f := range files {
		path := filepath.Join(l.root, f)
		if _, err := os.Stat(path); err == nil {
			l.varFile(path, vars, false)
		}
	}
	for _, a := range l.opts.Vars {
		if a.File {
			l.varFile(a.Value, vars, true)
			continue
		}
		name, raw, ok := strings.Cut(a.Value, "=")
		switch {
		case !ok || name == "":
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -var option",
				Detail: fmt.Sprintf("The option %s is not a variable name and a value separated by an equals sign, such as -var 'size=3'.", a)})
		case vars[name] == nil:
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("The option %s gives a value to the variable %q, which the root module does not declare; declare it with a variable %q {} block, or drop the option.%s",
					a, name, name, eval.DidYouMean(name, slices.Sorted(maps.Keys(vars))))})
		default:
			vars[name].Over = &eval.GivenValue{Value: root.rawValue(name, raw, a.String()), Source: a.String()}
		}
	}
}

// varFile reads a variable definitions file (.tfvars, in HCL, or
// .tfvars.json) and gives its values to the variables: over the stack's
// configuration for a -var-file, under it otherwise. A value for an
// undeclared variable is a warning, as in Terraform.
func (l *loader) varFile(path string, vars map[string]*eval.Config, over bool) {
	name := path
	if rel, err := filepath.Rel(l.project, path); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.ToSlash(rel)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read variables file",
			Detail: fmt.Sprintf("The variable definitions file %s cannot be read: %v.", path, err)})
		return
	}
	f := l.parse(name, src)
	if f == nil {
		return
	}
	attrs, diags := f.Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	for _, a := range sortedAttributes(attrs) {
		c := vars[a.Name]
		if c == nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Value for undeclared variable",
				Detail:  fmt.Sprintf("The root module does not declare a variable %q, so this value is not used; declare it with a variable %q {} block if it is meant for one.%s", a.Name, a.Name, eval.DidYouMean(a.Name, slices.Sorted(maps.Keys(vars)))),
				Subject: a.NameRange.Ptr()})
			continue
		}
		v, diags := a.Expr.Value(nil)
		l.diags = append(l.diags, diags...)
		if diags.HasErrors() {
			continue
		}
		g := &eval.GivenValue{Value: v, Source: name, Range: a.Expr.Range().Ptr()}
		if over {
			c.Over = g
		} else {
			c.Under = g
		}
	}
}

// rawValue reads the value of a variable given as text, on the command
// line or in the environment: as it is for a variable of a primitive type
// or of no type, as an HCL expression for others (-var 'tags={a="b"}').
func (m *module) rawValue(name, raw, source string) cty.Value {
	if !m.hclVars[name] {
		return cty.StringVal(raw)
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), source, hcl.InitialPos)
	if !diags.HasErrors() {
		var v cty.Value
		if v, diags = expr.Value(nil); !diags.HasErrors() {
			return v
		}
	}
	m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for variable " + name,
		Detail: fmt.Sprintf("The value given by %s is not a valid HCL expression: %s.", source, diags.Errs()[0])})
	return cty.DynamicVal
}
