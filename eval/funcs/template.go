package funcs

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// templateParams are the parameters of the template functions: the
// template (its path or its text) and the variables. Marks inside the
// variables stay where they are, so that only a template that uses a secret
// renders secret.
func templateParams(template string) []function.Parameter {
	return []function.Parameter{
		{Name: template, Type: cty.String},
		{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true},
	}
}

// templateFileFunc returns templatefile, rendering templates with fns.
func (s *scope) templateFileFunc(fns map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders the template in a file with the given variables.",
		Params:      templateParams("path"),
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			given := args[0].AsString()
			data, err := s.readFile(given)
			if err == nil {
				_, err = fileText(data)
			}
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return render(string(data), given, args[1], fns)
		},
	})
}

// templateStringFunc returns templatestring, rendering templates with fns.
func templateStringFunc(fns map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders a template given as a string with the given variables.",
		Params:      templateParams("template"),
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return render(args[0].AsString(), "<templatestring>", args[1], fns)
		},
	})
}

// nestedTemplateFileFunc stands for templatefile inside templates.
var nestedTemplateFileFunc = function.New(&function.Spec{
	Description: "Not available inside a template.",
	Params:      templateParams("path"),
	Type:        function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		return cty.NilVal, errors.New("templatefile cannot be called inside a template; render the inner template first and pass the result in vars")
	},
})

// render evaluates the template src with the variables vars and the
// functions fns. Marks on vars itself apply to the result.
func render(src, filename string, vars cty.Value, fns map[string]function.Function) (cty.Value, error) {
	vars, marks := vars.Unmark()
	ty := vars.Type()
	switch {
	case ty == cty.DynamicPseudoType || !vars.IsKnown():
		return cty.DynamicVal.WithMarks(marks), nil
	case !ty.IsObjectType() && !ty.IsMapType():
		return cty.NilVal, function.NewArgErrorf(1, "vars must be an object or a map of the template's variables, not %s", ty.FriendlyName())
	case vars.IsNull():
		return cty.NilVal, function.NewArgErrorf(1, "vars must not be null; give {} for a template without variables")
	}
	variables := map[string]cty.Value{}
	for it := vars.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if !hclsyntax.ValidIdentifier(name) {
			return cty.NilVal, function.NewArgErrorf(1, "%q cannot be a template variable: names start with a letter, followed by letters, digits, underscores and dashes", name)
		}
		variables[name] = v
	}

	expr, diags := hclsyntax.ParseTemplate([]byte(src), filename, hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, function.NewArgErrorf(0, "the template is not valid: %s", diags.Error())
	}
	for _, traversal := range expr.Variables() {
		if _, ok := variables[traversal.RootName()]; !ok {
			r := traversal.SourceRange()
			return cty.NilVal, function.NewArgErrorf(1, "vars has no %q, which the template uses at %s:%d,%d; add it to vars", traversal.RootName(), r.Filename, r.Start.Line, r.Start.Column)
		}
	}
	out, diags := expr.Value(&hcl.EvalContext{Variables: variables, Functions: fns})
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("rendering the template: %s", diags.Error())
	}
	return out.WithMarks(marks), nil
}
