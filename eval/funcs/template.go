package funcs

import (
	"errors"
	"fmt"
	"maps"

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

// maxTemplateDepth is how deep templates may render templates
// (templatefile and templatestring inside templates), as deep as OpenTofu
// allows by default: a template that renders itself fails there.
const maxTemplateDepth = 1024

// templateFileFunc returns templatefile for templates depth deep (0 for
// the program's own expressions), rendering with fns.
func (s *scope) templateFileFunc(fns map[string]function.Function, depth int) function.Function {
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
			lib, err := s.templateLibrary(fns, depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			return render(string(data), given, args[1], lib)
		},
	})
}

// templateStringFunc returns templatestring for templates depth deep,
// rendering with fns.
func (s *scope) templateStringFunc(fns map[string]function.Function, depth int) function.Function {
	return function.New(&function.Spec{
		Description: "Renders a template given as a string with the given variables.",
		Params:      templateParams("template"),
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			lib, err := s.templateLibrary(fns, depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			return render(args[0].AsString(), "<templatestring>", args[1], lib)
		},
	})
}

// errTooDeep is the error of templates rendered more than
// maxTemplateDepth deep, passed up through the templates unwrapped.
var errTooDeep = fmt.Errorf("templates render templates more than %d deep; a template may be rendering itself", maxTemplateDepth)

// templateLibrary returns the functions of templates depth deep: fns, with
// templatefile and templatestring rendering one level deeper.
func (s *scope) templateLibrary(fns map[string]function.Function, depth int) (map[string]function.Function, error) {
	if depth > maxTemplateDepth {
		return nil, errTooDeep
	}
	lib := maps.Clone(fns)
	file, str := guarded(s.templateFileFunc(fns, depth)), guarded(s.templateStringFunc(fns, depth))
	lib["templatefile"], lib["core::templatefile"] = file, file
	lib["templatestring"], lib["core::templatestring"] = str, str
	return lib, nil
}

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
	for _, d := range diags {
		if call, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra); ok && errors.Is(call.FunctionCallError(), errTooDeep) {
			return cty.NilVal, errTooDeep
		}
	}
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("rendering the template: %s", diags.Error())
	}
	return out.WithMarks(marks), nil
}
