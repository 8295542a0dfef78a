package eval

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/funcs"
)

// ReadFileFunction is the name of the function that reads a file of the
// project: pulumi::readfile(path) is the library's file(path) for a path
// computed at run time, which must be relative (and stay in the project);
// a constant absolute path is read with file itself.
const ReadFileFunction = "pulumi::readfile"

// functions returns the functions of a scope instance: the shared library
// and the functions that need the run (InvokeFunction, ReadFileFunction).
func (s *scopeRun) functions(ctx context.Context) map[string]function.Function {
	fns := funcs.Functions(funcs.Options{BaseDir: s.g.scope.Dir, RootDir: s.r.prog.RootDir, Preview: s.r.info.DryRun})
	fns[InvokeFunction] = s.invokeFunc(ctx)
	fns[ReadFileFunction] = readFileFunc(fns["file"])
	for name, token := range s.r.prog.ProviderFunctions {
		fns[name] = s.providerFunc(ctx, token)
	}
	return fns
}

// providerFunc is a function of Program.ProviderFunctions: an invoke of
// token by the scope's default provider of its package. Its result is
// unknown while an argument is, and secret when one is.
func (s *scopeRun) providerFunc(ctx context.Context, token string) function.Function {
	return function.New(&function.Spec{
		Description: "Calls the provider function " + token + ".",
		VarParam: &function.Parameter{Name: "arguments", Type: cty.DynamicPseudoType,
			AllowNull: true, AllowUnknown: true, AllowMarked: true, AllowDynamicType: true},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			prov, err := s.defaultProvider(resource.TypePackage(token))
			if err != nil {
				return cty.NilVal, err
			}
			v, err := s.r.invoke(ctx, token, cty.ObjectVal(map[string]cty.Value{"arguments": cty.TupleVal(args)}), prov, "")
			if err != nil {
				return cty.NilVal, err
			}
			v, marks := v.Unmark()
			if !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute("result") {
				return cty.DynamicVal.WithMarks(marks), nil
			}
			return v.GetAttr("result").WithMarks(marks), nil
		},
	})
}

// readFileFunc confines file to relative paths.
func readFileFunc(file function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Reads a file of the project, by a path relative to the program's directory.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if filepath.IsAbs(p) {
				return cty.NilVal, function.NewArgError(0, fmt.Errorf("%s is an absolute path computed by the program; a file outside the project can only be read by a constant absolute path", p))
			}
			return file.Call(args)
		},
	})
}
