package tfbuiltin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
)

// RemoteStateToken is the function token of terraform_remote_state.
const RemoteStateToken = "terraform:index/getRemoteState:getRemoteState"

// remoteState reads terraform_remote_state: the root module outputs of
// a state file of the local backend, over the defaults given. Paths are
// relative to dir, the project's folder, as Terraform's are relative to
// the folder it runs in.
func remoteState(dir string, args resource.Map) provider.InvokeResponse {
	fail := func(property, format string, a ...any) provider.InvokeResponse {
		return provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: property, Reason: fmt.Sprintf(format, a...)}}}
	}
	backend := text(args["backend"])
	if backend != "local" {
		return fail("backend", "backend %q is not read by Cairn, which reads terraform_remote_state from the local backend only: "+
			"save the state to a file (`tofu state pull > FILE` or `terraform state pull > FILE`) and read it with "+
			"backend = \"local\" and config = { path = FILE }", backend)
	}
	config := resource.Map{}
	if c := args["config"].Unsecret(); c.IsObject() {
		config = c.ObjectValue()
	}
	for k := range config {
		if k != "path" && k != "workspace_dir" {
			return fail("config", "the configuration of backend \"local\" has no attribute %q: it has path and workspace_dir", k)
		}
	}
	path := text(config["path"])
	if path == "" {
		path = "terraform.tfstate"
	}
	if ws := text(args["workspace"]); ws != "" && ws != "default" {
		wsDir := text(config["workspace_dir"])
		if wsDir == "" {
			wsDir = "terraform.tfstate.d"
		}
		path = filepath.Join(wsDir, ws, filepath.Base(path))
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fail("config", "no state was found for the workspace in backend \"local\": %s does not exist", path)
	} else if err != nil {
		return fail("config", "reading the state: %v", err)
	}
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
