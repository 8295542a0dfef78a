package eval

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// InvokeFunction is the name of the function that calls provider functions:
// pulumi::invoke(token, arguments[, options]), where options is an object of
// provider, version, pluginDownloadURL, parent and dependsOn. YAML's
// fn::invoke is a call of it; the token should be a string literal, so that
// the checker can resolve it and check the arguments.
const InvokeFunction = "pulumi::invoke"

// invokeToken returns the literal token of a call of InvokeFunction.
func invokeToken(n hclsyntax.Node) (string, bool) {
	call, ok := n.(*hclsyntax.FunctionCallExpr)
	if !ok || call.Name != InvokeFunction || len(call.Args) == 0 {
		return "", false
	}
	return literalString(call.Args[0])
}

// literalString returns the value of a string literal expression.
func literalString(e hcl.Expression) (string, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.Type() == cty.String && !e.Val.IsNull() {
			return e.Val.AsString(), true
		}
	case *hclsyntax.TemplateExpr:
		if len(e.Parts) == 1 {
			return literalString(e.Parts[0])
		}
	case *hclsyntax.TemplateWrapExpr:
		return literalString(e.Wrapped)
	}
	return "", false
}

// invokeFunc is InvokeFunction for one scope instance.
func (s *scopeRun) invokeFunc(ctx context.Context) function.Function {
	return function.New(&function.Spec{
		Description: "Calls a provider function with arguments and options, and returns its result.",
		Params: []function.Parameter{
			{Name: "token", Type: cty.String},
			{Name: "arguments", Type: cty.DynamicPseudoType, AllowNull: true},
		},
		VarParam: &function.Parameter{Name: "options", Type: cty.DynamicPseudoType, AllowNull: true},
		Type:     function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			token := args[0].AsString()
			var prov, version string
			if len(args) > 2 {
				if len(args) > 3 {
					return cty.NilVal, function.NewArgErrorf(3, "%s takes at most three arguments", InvokeFunction)
				}
				var err error
				if prov, version, err = invokeOptions(args[2]); err != nil {
					return cty.NilVal, function.NewArgError(2, err)
				}
			}
			if prov == "" {
				ref, err := s.defaultProvider(resource.TypePackage(token))
				if err != nil {
					return cty.NilVal, err
				}
				prov = ref
			}
			return s.r.invoke(ctx, token, args[1], prov, version)
		},
	})
}

// invokeOptions reads the provider and version of an invoke's options.
func invokeOptions(v cty.Value) (prov, version string, err error) {
	if v.IsNull() {
		return "", "", nil
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return "", "", fmt.Errorf("the options must be an object; this is a %s", v.Type().FriendlyName())
	}
	for it := v.ElementIterator(); it.Next(); {
		k, el := it.Element()
		if el.IsNull() {
			continue
		}
		switch k.AsString() {
		case "provider":
			if prov, err = providerRef(el); err != nil {
				return "", "", fmt.Errorf("the provider option: %v", err)
			}
		case "version":
			if el.Type() != cty.String {
				return "", "", errors.New("the version option must be a string")
			}
			version = el.AsString()
		case "parent", "dependsOn", "pluginDownloadURL":
			// Ordering only: the references make the call wait.
		default:
			return "", "", fmt.Errorf("there is no invoke option %s; the options are provider, version, pluginDownloadURL, parent and dependsOn.%s",
				k.AsString(), DidYouMean(k.AsString(), []string{"provider", "version", "pluginDownloadURL", "parent", "dependsOn"}))
		}
	}
	return prov, version, nil
}

// defaultProvider returns the reference of the scope's default provider of
// a package: its own, or the one the module instances it is in pass it,
// the innermost first (as the engine gives a module's resources theirs);
// "" when it has none.
func (s *scopeRun) defaultProvider(pkg string) (string, error) {
	if p := s.g.defaults[pkg]; p != nil {
		return providerRef(s.states[p].current())
	}
	return s.passedProvider(pkg), nil
}

// passedProvider returns the reference of the provider of a package that
// the module instances the scope is in pass it, the innermost first, or
// "" when none does.
func (s *scopeRun) passedProvider(pkg string) string {
	for sc := s; sc != nil; sc = sc.up {
		if ref, ok := sc.providers[pkg]; ok {
			return ref
		}
	}
	return ""
}

// invoke calls a provider function. Its result is unknown when the
// arguments are not all known (a preview), and carries their marks, unless
// its provider marks the secrets of the result itself (typeInfo.marksPaths):
// then the arguments go to it with their secrets.
func (r *run) invoke(ctx context.Context, token string, args cty.Value, prov, version string) (cty.Value, error) {
	plain, marks := args.UnmarkDeep()
	if !plain.IsWhollyKnown() {
		return cty.DynamicVal.WithMarks(marks), nil
	}
	own := r.types.marksPaths(token)
	if !own {
		args = plain
	}
	am, _, err := values.ObjectToEngine(args)
	if err != nil {
		return cty.NilVal, fmt.Errorf("the arguments of %s: %v", token, err)
	}
	req := deploy.InvokeRequest{Token: r.types.function(token), Args: am, Provider: prov}
	req.Version, req.Parameterization = r.prog.parameterize(req.Token, version)
	resp, err := r.info.Monitor.Invoke(ctx, req)
	if err != nil {
		return cty.NilVal, err
	}
	if resp.Unknown {
		return cty.DynamicVal.WithMarks(marks), nil
	}
	ret := values.MapFromEngine(r.types.result(token, resp.Return))
	if own {
		return ret, nil
	}
	return ret.WithMarks(marks), nil
}

// invokeNode calls the function of an Invoke node. In a preview, a data
// source (DeferChanged) that depends on a resource or module that would
// change is not called: its value is unknown until the update, which
// calls it once that has changed, as Terraform defers such reads.
func (s *scopeRun) invokeNode(ctx context.Context, v *vertex, n *Invoke, ectx *hcl.EvalContext) (cty.Value, bool) {
	if n.DeferChanged && s.r.info.DryRun && (s.deferReads || s.changed(v)) {
		return cty.DynamicVal, true
	}
	args, ok := s.properties(n.Args, ectx)
	o := s.options(ectx)
	prov := o.provider(n.Options.Provider)
	version := o.string(n.Options.Version)
	o.urns(n.Options.DependsOn)           // checked; the reference orders the call
	o.string(n.Options.PluginDownloadURL) // checked; the engine's invoke does not take it
	if !ok || !o.ok || !s.conditions(n.Preconditions, ectx, "Resource precondition failed") {
		return cty.DynamicVal, false
	}
	if !n.Ephemeral && !s.refuseEphemeral(args, ephemeralAt(n.Args, n.NameRange, args), "Ephemeral value used in non-ephemeral context",
		"Ephemeral values are never kept, so a data source's arguments cannot refer to them; an ephemeral resource's can (ephemeralasnull(…) makes one null).") {
		return cty.DynamicVal, false
	}
	if prov == "" && v.provider != nil {
		ref, err := providerRef(s.states[v.provider].current())
		if err != nil {
			s.r.report(hcl.Diagnostics{errorDiag(n.NameRange, "Invalid default provider", err.Error())})
			return cty.DynamicVal, false
		}
		prov = ref
	}
	if prov == "" {
		prov = s.passedProvider(resource.TypePackage(n.Token))
	}
	val, err := s.r.invoke(ctx, n.Token, args, prov, version)
	if err != nil {
		s.r.registerFailure(&n.Decl, "call the function of", err)
		return cty.DynamicVal, false
	}
	if n.Ephemeral {
		val = val.Mark(values.Ephemeral).Mark(values.Secret)
	}
	if !s.conditions(n.Postconditions, withSelf(ectx, val), "Resource postcondition failed") {
		return cty.DynamicVal, false
	}
	return val, true
}
