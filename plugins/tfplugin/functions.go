package tfplugin

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// Invoke implements provider.Provider: a data source's token reads it
// with ReadDataSource (its result is the data source's state); an
// ephemeral resource's opens it (see open); a provider
// function's token calls it with CallFunction (its arguments are the list
// "arguments", its result "result").
func (p *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	proc, s, err := p.ready(ctx)
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	if t := s.data[req.Token]; t != nil {
		return p.readData(ctx, proc, t, req.Args)
	}
	if t := s.ephemeral[req.Token]; t != nil {
		return p.open(ctx, proc, t, req.Args)
	}
	if name, ok := s.functions[req.Token]; ok {
		return p.callFunction(ctx, proc, name, s.resp.GetFunctions()[name], req.Args)
	}
	return provider.InvokeResponse{}, fmt.Errorf("the Terraform provider %s has no data source, ephemeral resource or function for %s", p.param.Source, req.Token)
}

// readData reads a data source.
func (p *Provider) readData(ctx context.Context, proc *process, t *typed, args resource.Map) (provider.InvokeResponse, error) {
	dv, secrets, fs, err := p.invokeConfig(t, args, "ValidateDataResourceConfig", func(dv *tfplugin6.DynamicValue) ([]*tfplugin6.Diagnostic, error) {
		resp, err := proc.rpc.ValidateDataResourceConfig(ctx, &tfplugin6.ValidateDataResourceConfig_Request{TypeName: t.name, Config: dv})
		return resp.GetDiagnostics(), err
	})
	if err != nil || len(fs) > 0 {
		return provider.InvokeResponse{Failures: fs}, err
	}
	resp, err := proc.rpc.ReadDataSource(ctx, &tfplugin6.ReadDataSource_Request{TypeName: t.name, Config: dv,
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		return provider.InvokeResponse{}, p.rpcError("ReadDataSource", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "reading data source "+t.name); err != nil {
		return provider.InvokeResponse{}, err
	}
	return p.invokeResult(resp.GetState(), t, "data source", secrets)
}

// invokeConfig encodes an invoke's arguments as the configuration of t
// and has the provider check it with validate (its RPC named rpc):
// failures are what is wrong with the arguments; secrets, the paths of
// those that are secret.
func (p *Provider) invokeConfig(t *typed, args resource.Map, rpc string, validate func(*tfplugin6.DynamicValue) ([]*tfplugin6.Diagnostic, error)) (
	dv *tfplugin6.DynamicValue, secrets []resource.Path, failures []provider.CheckFailure, err error) {
	cfg, secrets, err := configValue(t, args)
	if err != nil {
		return nil, nil, failure(err), nil
	}
	if dv, err = encode(cfg, t.ty); err != nil {
		return nil, nil, nil, err
	}
	diags, err := validate(dv)
	if err != nil {
		return nil, nil, nil, p.rpcError(rpc, err)
	}
	return dv, secrets, p.failures(diags, ""), nil
}

// invokeResult is the engine's value of the object a provider gave for an
// invoke of t, a noun ("data source", "ephemeral resource"): its state or
// result, with the paths in secrets secret.
func (p *Provider) invokeResult(dv *tfplugin6.DynamicValue, t *typed, noun string, secrets []resource.Path) (provider.InvokeResponse, error) {
	v, err := decode(dv, t.ty)
	if err != nil {
		return provider.InvokeResponse{}, fmt.Errorf("the result of %s %s: %w", noun, t.name, err)
	}
	if v.IsNull() || !v.IsWhollyKnown() {
		return provider.InvokeResponse{}, fmt.Errorf("the Terraform provider %s produced an invalid result for %s %s: it is null or not wholly known", p.param.Source, noun, t.name)
	}
	out := stateToEngine(t.block, v)
	markPaths(out, secrets)
	return provider.InvokeResponse{Return: out}, nil
}

// callFunction calls a provider function: each argument is converted to
// its parameter's type (those past the parameters to the variadic
// parameter's). A null argument a parameter does not allow is an error; an
// unknown one makes the result unknown unless the parameter allows it.
// The result is secret when an argument was.
func (p *Provider) callFunction(ctx context.Context, proc *process, name string, fn *tfplugin6.Function, args resource.Map) (provider.InvokeResponse, error) {
	given := args["arguments"]
	if !given.IsNull() && !given.IsArray() {
		return provider.InvokeResponse{}, fmt.Errorf("function %s: its arguments are a list", name)
	}
	params := fn.GetParameters()
	var list []resource.Value
	if given.IsArray() {
		list = given.ArrayValue()
	}
	if len(list) < len(params) || len(list) > len(params) && fn.GetVariadicParameter() == nil {
		return provider.InvokeResponse{}, fmt.Errorf("function %s takes %d arguments, not %d", name, len(params), len(list))
	}
	ret, err := typeOf(fn.GetReturn().GetType())
	if err != nil {
		return provider.InvokeResponse{}, fmt.Errorf("function %s: %w", name, err)
	}
	var secrets []resource.Path
	var wire []*tfplugin6.DynamicValue
	unknown := false
	for i, a := range list {
		param := fn.GetVariadicParameter()
		if i < len(params) {
			param = params[i]
		}
		ty, err := typeOf(param.GetType())
		if err != nil {
			return provider.InvokeResponse{}, fmt.Errorf("function %s: parameter %s: %w", name, param.GetName(), err)
		}
		v, err := toCty(a, ty, resource.Path{"arguments", i}, &secrets)
		switch {
		case err != nil:
			return provider.InvokeResponse{}, fmt.Errorf("function %s: argument %d (%s): %w", name, i+1, param.GetName(), err)
		case v.IsNull() && !param.GetAllowNullValue():
			return provider.InvokeResponse{}, fmt.Errorf("function %s: argument %d (%s) must not be null", name, i+1, param.GetName())
		case !v.IsWhollyKnown() && !param.GetAllowUnknownValues():
			unknown = true
		}
		dv, err := encode(v, ty)
		if err != nil {
			return provider.InvokeResponse{}, err
		}
		wire = append(wire, dv)
	}
	result := resource.Unknown()
	if !unknown {
		resp, err := proc.rpc.CallFunction(ctx, &tfplugin6.CallFunction_Request{Name: name, Arguments: wire})
		if err != nil {
			return provider.InvokeResponse{}, p.rpcError("CallFunction", err)
		}
		if fe := resp.GetError(); fe != nil {
			if fe.FunctionArgument != nil {
				return provider.InvokeResponse{}, fmt.Errorf("function %s: argument %d: %s", name, fe.GetFunctionArgument()+1, fe.GetText())
			}
			return provider.InvokeResponse{}, fmt.Errorf("function %s: %s", name, fe.GetText())
		}
		v, err := decode(resp.GetResult(), ret)
		if err != nil {
			return provider.InvokeResponse{}, fmt.Errorf("the result of function %s: %w", name, err)
		}
		result = fromCty(v)
	}
	if len(secrets) > 0 {
		result = resource.MakeSecret(result)
	}
	return provider.InvokeResponse{Return: resource.Map{"result": result}}, nil
}
