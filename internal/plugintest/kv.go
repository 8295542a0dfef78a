package plugintest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// DirEnv names the environment variable that says where KV providers keep
// their resources, unless their configuration has a "dir".
const DirEnv = "CAIRN_KV_DIR"

// CallsEnv names the environment variable that names a file to which KV
// providers append a line per Check and Diff ("Check <name>"), so that
// scenarios can tell which calls the engine made.
const CallsEnv = "CAIRN_KV_CALLS"

// logCall appends a call to the file $CAIRN_KV_CALLS names, if any.
func logCall(method string, urn resource.URN) {
	path := os.Getenv(CallsEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%s %s\n", method, urn.Name())
	f.Close()
}

// KV is a provider whose resources are JSON files in a folder. Its resource
// type <pkg>:index:Item takes any inputs; among them:
//
//   - value: any value; the output "length" is its length when a string;
//   - key: the item's ID; changing it replaces the item;
//   - crash: the plugin process exits in the middle of Create;
//   - hang: Create never answers;
//   - fail: Create fails with this message;
//   - partial: Create makes the item but reports it partially initialised.
//
// Outputs are the inputs plus "length" and "revision" (1, then one more on
// every update; unknown in previews). Items record whether their inputs
// reached the provider as secrets ("sawSecret" in the file). The function
// <pkg>:index:lookup returns the value of the item whose ID is "id", and
// the component <pkg>:index:Pair is constructed with two items.
//
// Configuration: "dir" (default $CAIRN_KV_DIR) and "acceptSecrets"
// (default true), which Configure reports.
//
// Parameterized with the arguments [NAME] or the value NAME, a KV provider
// serves package NAME instead, whose schema declares NAME:index:Item with
// the inputs value and key (and outputs length and revision), and records the value in its parameterization.
type KV struct {
	pkg       string
	version   string
	handshake bool
	base      string // the package served before parameterization, if parameterized

	mu            sync.Mutex
	dir           string
	acceptSecrets bool
}

var _ provider.Provider = (*KV)(nil)

// item is an item's file.
type item struct {
	Inputs    map[string]any `json:"inputs"`
	Outputs   map[string]any `json:"outputs"`
	SawSecret bool           `json:"sawSecret"`
}

// Pkg implements provider.Provider.
func (k *KV) Pkg() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.pkg
}

// GetPluginInfo implements provider.Provider.
func (k *KV) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: k.version}, nil
}

// GetSchema implements provider.Provider with a minimal schema.
func (k *KV) GetSchema(context.Context, provider.GetSchemaRequest) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := map[string]any{"name": k.pkg, "version": k.version}
	if k.base != "" {
		str, num := map[string]any{"type": "string"}, map[string]any{"type": "number"}
		inputs := map[string]any{"value": str, "key": str}
		outputs := map[string]any{"value": str, "key": str, "length": num, "revision": num}
		s["resources"] = map[string]any{k.pkg + ":index:Item": map[string]any{"inputProperties": inputs, "properties": outputs}}
		s["parameterization"] = map[string]any{
			"baseProvider": map[string]any{"name": k.base, "version": k.version},
			"parameter":    []byte(k.pkg), // base64 in JSON
		}
	}
	return json.Marshal(s)
}

// Handshake implements serve.Handshaker when the provider was made to
// handshake: it accepts resource references but not secrets.
func (k *KV) Handshake(context.Context) (provider.ConfigureResponse, error) {
	if !k.handshake {
		return provider.ConfigureResponse{}, provider.ErrNotImplemented
	}
	return provider.ConfigureResponse{AcceptResources: true, SupportsPreview: true}, nil
}

// CheckConfig implements provider.Provider.
func (k *KV) CheckConfig(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return provider.CheckResponse{Inputs: req.News}, nil
}

// DiffConfig implements provider.Provider.
func (k *KV) DiffConfig(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

// Configure implements provider.Provider.
func (k *KV) Configure(_ context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.dir = os.Getenv(DirEnv)
	if d := req.Inputs["dir"].Unsecret(); d.IsString() {
		k.dir = d.StringValue()
	}
	if k.dir == "" {
		return provider.ConfigureResponse{}, fmt.Errorf("the kv provider needs a folder: set its dir configuration or $%s", DirEnv)
	}
	k.acceptSecrets = true
	if a := req.Inputs["acceptSecrets"].Unsecret(); a.IsBool() {
		k.acceptSecrets = a.BoolValue()
	}
	return provider.ConfigureResponse{AcceptSecrets: k.acceptSecrets, AcceptResources: true, SupportsPreview: true}, nil
}

// Check implements provider.Provider.
func (k *KV) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	logCall("Check", req.URN)
	if v := req.News["value"]; v.IsString() && v.StringValue() == "invalid" {
		return provider.CheckResponse{Failures: []provider.CheckFailure{{Property: "value", Reason: `must not be "invalid"`}}}, nil
	}
	return provider.CheckResponse{Inputs: req.News}, nil
}

// Diff implements provider.Provider: a new key replaces the item.
func (k *KV) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	logCall("Diff", req.URN)
	detailed, changed := resource.DiffMaps(req.OldInputs, req.News)
	if len(changed) == 0 {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	resp := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: changed, DetailedDiff: detailed}
	if !req.OldInputs["key"].Equal(req.News["key"]) {
		resp.ReplaceKeys = []string{"key"}
		for path, d := range detailed {
			if path == "key" {
				d.Kind = d.Kind.AsReplace()
				detailed[path] = d
			}
		}
	}
	return resp, nil
}

// outputs computes an item's outputs from its inputs.
func outputs(inputs resource.Map, revision resource.Value) resource.Map {
	out := inputs.Copy()
	out["revision"] = revision
	switch v := inputs["value"].Unsecret(); {
	case v.IsString():
		out["length"] = resource.Number(float64(len(v.StringValue())))
	case v.IsUnknown():
		out["length"] = resource.Unknown()
	}
	return out
}

// Create implements provider.Provider.
func (k *KV) Create(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if req.Preview {
		return provider.CreateResponse{Outputs: outputs(req.Inputs, resource.Unknown())}, nil
	}
	in := req.Inputs.Unsecret()
	switch {
	case in["crash"].Equal(resource.Bool(true)):
		fmt.Fprintln(os.Stderr, "kv: crashing in the middle of Create, as asked")
		os.Exit(7)
	case in["hang"].Equal(resource.Bool(true)):
		select {}
	case in["fail"].IsString():
		return provider.CreateResponse{}, errors.New(in["fail"].StringValue())
	}
	id := resource.ID(req.Name + "-" + randomHex())
	if key := in["key"]; key.IsString() {
		id = resource.ID(key.StringValue())
	}
	outs := outputs(req.Inputs, resource.Number(1))
	if err := k.write(id, req.Inputs, outs); err != nil {
		return provider.CreateResponse{}, err
	}
	if in["partial"].Equal(resource.Bool(true)) {
		return provider.CreateResponse{}, &provider.InitError{ID: id, Outputs: outs, Reasons: []string{"the item is not ready"}}
	}
	return provider.CreateResponse{ID: id, Outputs: outs}, nil
}

// Read implements provider.Provider.
func (k *KV) Read(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	it, err := k.read(req.ID)
	if errors.Is(err, os.ErrNotExist) {
		return provider.ReadResponse{}, nil
	}
	if err != nil {
		return provider.ReadResponse{}, err
	}
	inputs, outs, err := it.decode()
	return provider.ReadResponse{ID: req.ID, Inputs: inputs, Outputs: outs}, err
}

// Update implements provider.Provider.
func (k *KV) Update(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if req.Preview {
		return provider.UpdateResponse{Outputs: outputs(req.News, resource.Unknown())}, nil
	}
	revision := 1.0
	if r := req.OldOutputs["revision"]; r.IsNumber() {
		revision = r.NumberValue() + 1
	}
	outs := outputs(req.News, resource.Number(revision))
	return provider.UpdateResponse{Outputs: outs}, k.write(req.ID, req.News, outs)
}

// Delete implements provider.Provider.
func (k *KV) Delete(_ context.Context, req provider.DeleteRequest) error {
	err := os.Remove(k.path(req.ID))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Invoke implements provider.Provider.
func (k *KV) Invoke(_ context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	if req.Token != k.pkg+":index:lookup" {
		return provider.InvokeResponse{}, fmt.Errorf("unknown function %s", req.Token)
	}
	id := req.Args["id"].Unsecret()
	if !id.IsString() {
		return provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: "id", Reason: "must be a string"}}}, nil
	}
	it, err := k.read(resource.ID(id.StringValue()))
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	_, outs, err := it.decode()
	return provider.InvokeResponse{Return: resource.Map{"value": outs["value"]}}, err
}

// Call implements provider.Provider.
func (k *KV) Call(context.Context, provider.CallRequest) (provider.CallResponse, error) {
	return provider.CallResponse{}, provider.ErrNotImplemented
}

// Parameterize implements provider.Provider.
func (k *KV) Parameterize(_ context.Context, req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
	name := string(req.Value)
	if req.Args != nil {
		if len(req.Args) != 1 {
			return provider.ParameterizeResponse{}, fmt.Errorf("the kv provider takes one parameter, the package name; got %q", req.Args)
		}
		name = req.Args[0]
	}
	if name == "" {
		return provider.ParameterizeResponse{}, fmt.Errorf("the kv provider is parameterized with a package name, as an argument or as the value")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.base != "" {
		return provider.ParameterizeResponse{}, fmt.Errorf("the kv provider is parameterized already, for package %s", k.pkg)
	}
	k.base, k.pkg = k.pkg, name
	return provider.ParameterizeResponse{Name: name, Version: k.version}, nil
}

// SignalCancellation implements provider.Provider.
func (k *KV) SignalCancellation(context.Context) error { return nil }

// Close implements provider.Provider.
func (k *KV) Close() error { return nil }

// decode reads an item's inputs and outputs.
func (it item) decode() (inputs, outputs resource.Map, err error) {
	if inputs, err = resource.DecodeMap(it.Inputs, resource.DecodeOptions{}); err != nil {
		return nil, nil, err
	}
	outputs, err = resource.DecodeMap(it.Outputs, resource.DecodeOptions{})
	return inputs, outputs, err
}

func (k *KV) path(id resource.ID) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return filepath.Join(k.dir, string(id)+".json")
}

func (k *KV) write(id resource.ID, inputs, outs resource.Map) error {
	plain := resource.EncodeOptions{KeepResources: true}
	in, err := resource.EncodeMap(inputs, plain)
	if err != nil {
		return err
	}
	out, err := resource.EncodeMap(outs, plain)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(item{Inputs: in, Outputs: out, SawSecret: inputs.ContainsSecrets()}, "", "  ")
	if err != nil {
		return err
	}
	path := k.path(id)
	if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

func (k *KV) read(id resource.ID) (item, error) {
	var it item
	data, err := os.ReadFile(k.path(id))
	if err != nil {
		return it, err
	}
	return it, json.Unmarshal(data, &it)
}

// ReadItem reads the file of the item with the given ID in dir, as tests
// look at the cloud.
func ReadItem(dir string, id resource.ID) (inputs, outputs resource.Map, sawSecret bool, err error) {
	k := &KV{dir: dir}
	it, err := k.read(id)
	if err != nil {
		return nil, nil, false, err
	}
	inputs, outputs, err = it.decode()
	return inputs, outputs, it.SawSecret, err
}

// WriteItem writes an item's file in dir, as tests change the cloud behind
// Cairn's back.
func WriteItem(dir string, id resource.ID, inputs resource.Map) error {
	k := &KV{dir: dir}
	return k.write(id, inputs, outputs(inputs, resource.Number(1)))
}

func randomHex() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
