package tfbuiltin

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfbackend"
	"github.com/cairn-iac/cairn/engine/tfstate"
)

// RemoteStateToken is the function token of terraform_remote_state.
const RemoteStateToken = "terraform:index/getRemoteState:getRemoteState"

// remoteState reads terraform_remote_state: the root module outputs of
// the state a Terraform backend keeps for the workspace (local, s3, gcs,
// azurerm, pg or http, with their arguments in config, as Terraform
// reads them: see tfbackend), over the defaults given. The local
// backend's paths are relative to dir, the project's folder, as
// Terraform's are relative to the folder it runs in.
func remoteState(ctx context.Context, dir string, args resource.Map) provider.InvokeResponse {
	fail := func(property, format string, a ...any) provider.InvokeResponse {
		return provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: property, Reason: fmt.Sprintf(format, a...)}}}
	}
	backend := text(args["backend"])
	config := map[string]any{}
	if c := args["config"].Unsecret(); c.IsObject() {
		config = c.ObjectValue().ToGo()
	}
	b, err := tfbackend.New(backend, config, tfbackend.Options{Dir: dir, Getenv: os.Getenv})
	if ae := (*tfbackend.ArgError)(nil); errors.As(err, &ae) && ae.Arg == "" {
		return fail("backend", "%s", err)
	} else if err != nil {
		return fail("config", "%s", err)
	}
	ws := text(args["workspace"])
	data, err := b.ReadState(ctx, ws)
	if errors.Is(err, tfbackend.ErrNoState) {
		return fail("workspace", "Unable to find remote state: %s", err)
	} else if err != nil {
		return fail("config", "%s", err)
	}
	path := b.Where(ws)
	st, err := tfstate.Read(data)
	if err != nil {
		return fail("config", "%s: %v", path, err)
	}
	outputs := resource.Map{}
	if d := args["defaults"].Unsecret(); d.IsObject() {
		for k, v := range d.ObjectValue() {
			outputs[k] = v
		}
	}
	for name, o := range st.Outputs {
		v, err := o.EngineValue()
		if err != nil {
			return fail("config", "%s: output %q: %v", path, name, err)
		}
		outputs[name] = v
	}
	ret := resource.Map{"outputs": resource.Object(outputs)}
	for _, k := range []string{"backend", "config", "workspace", "defaults"} {
		if v, ok := args[k]; ok {
			ret[k] = v
		}
	}
	return provider.InvokeResponse{Return: ret}
}

// text returns v's string, or "" if it is not a string.
func text(v resource.Value) string {
	if v = v.Unsecret(); v.IsString() {
		return v.StringValue()
	}
	return ""
}
