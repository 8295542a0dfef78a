package tfplugin

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// MocksEnv names the environment variable that holds the path of a
// Mocks file: `cairn test` sets it for the runs of a Terraform test file
// with mock_provider or override blocks. Children never inherit it (see
// internal/childenv).
const MocksEnv = "CAIRN_TERRAFORM_MOCKS"

// Mocks are the mocked providers and overridden resources of a Terraform
// test's run, as OpenTofu's mock_provider and override_resource have
// them. A mocked provider is never configured nor started but to read
// its schema when none is kept: a mock answers its calls. Values are
// JSON, by attribute name.
type Mocks struct {
	// Providers are the mocked providers, every configuration of each, by
	// type.
	Providers map[string]*MockProvider `json:"providers,omitempty"`
	// Configurations are mocked configurations of the root module, by
	// TYPE.ALIAS: an aliased mock_provider's.
	Configurations map[string]*MockProvider `json:"configurations,omitempty"`
	// Resources are the values of overridden resources, by address
	// (TYPE.NAME, module.M.TYPE.NAME): a mock answers for them.
	Resources map[string]map[string]json.RawMessage `json:"resources,omitempty"`
}

// MockProvider is a mock_provider block: the values of the computed
// attributes of its resource types and data sources, by their names.
type MockProvider struct {
	Resources map[string]map[string]json.RawMessage `json:"resources,omitempty"`
	Data      map[string]map[string]json.RawMessage `json:"data,omitempty"`
}

var (
	mocksOnce sync.Once
	mocks     Mocks
	mocksErr  error
)

// loadMocks reads the Mocks file MocksEnv names, once; no file, no mocks.
func loadMocks() (Mocks, error) {
	mocksOnce.Do(func() {
		path := os.Getenv(MocksEnv)
		if path == "" {
			return
		}
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &mocks)
		}
		if err != nil {
			mocksErr = fmt.Errorf("reading the mocks of %s=%s: %w", MocksEnv, path, err)
		}
	})
	return mocks, mocksErr
}

// override returns the values of the resource of urn, of Terraform type
// typ, when it is overridden: the whole resource or, for one of its
// instances (NAME[KEY], or of a module's instance), all of them. A
// module's resource is named by the module calls that hold it, from the
// root: site.NAME, site[0].inner.NAME.
func (m Mocks) override(typ string, urn resource.URN) map[string]json.RawMessage {
	if len(m.Resources) == 0 || !urn.IsValid() {
		return nil
	}
	parts := strings.Split(urn.UnkeyedName(), ".")
	addr := ""
	for _, call := range parts[:len(parts)-1] {
		addr += "module." + call + "."
	}
	if addr == "" && strings.Contains(urn.QualifiedType(), "hcl:module:") {
		return nil
	}
	return m.Resources[addr+typ+"."+parts[len(parts)-1]]
}

// provider returns the mock of the provider configuration of urn, of
// the provider type typ: that of the root module's configuration of its
// alias, else the type's; nil when it is not mocked.
func (m Mocks) provider(typ string, urn resource.URN) *MockProvider {
	if urn.IsValid() && !strings.Contains(urn.QualifiedType(), "$") {
		if mp := m.Configurations[typ+"."+urn.Name()]; mp != nil {
			return mp
		}
	}
	return m.Providers[typ]
}

// mockProcess is a process no binary runs: mockClient answers its calls.
func mockProcess(s *providerSchema, resources, data map[string]map[string]json.RawMessage) *process {
	return &process{rpc: &mockClient{schema: s, resources: resources, data: data}, version: 6, end: func() {}}
}

// mockClient answers a provider's calls as OpenTofu's mock provider does:
// configurations are valid, a plan sets the computed attributes the
// configuration leaves null to the given values, else to generated ones
// (strings of 8 letters and digits, numbers 0, bools false, empty
// collections), an apply returns its plan, a read the state as it is and
// a data source its configuration with the same values.
type mockClient struct {
	schema          *providerSchema
	resources, data map[string]map[string]json.RawMessage // by Terraform type name
}

var _ tfplugin6.ProviderClient = (*mockClient)(nil)

func (m *mockClient) typed(set map[string]*typed, name string) (*typed, error) {
	for _, t := range set {
		if t.name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("the mocked provider has no %s", name)
}

// fill sets the computed attributes of v that config leaves null: to the
// given values, else, when null, to generated ones.
func fill(t *typed, v, config cty.Value, given map[string]json.RawMessage) (cty.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return v, nil
	}
	attrs := v.AsValueMap()
	for _, a := range t.block.GetAttributes() {
		if !a.GetComputed() || !config.IsNull() && config.Type().IsObjectType() && !config.GetAttr(a.GetName()).IsNull() {
			continue
		}
		ty := t.ty.AttributeType(a.GetName())
		cur := attrs[a.GetName()]
		if raw, ok := given[a.GetName()]; ok {
			val, err := ctyjson.Unmarshal(raw, ty)
			if err != nil {
				return cty.NilVal, fmt.Errorf("the mock value of %s.%s: %w", t.name, a.GetName(), err)
			}
			attrs[a.GetName()] = val
		} else if cur.IsNull() || !cur.IsKnown() {
			attrs[a.GetName()] = generated(ty)
		}
	}
	for name := range given {
		if a := t.block.GetAttributes(); !t.ty.HasAttribute(name) {
			return cty.NilVal, fmt.Errorf("%s has no attribute %s to mock", t.name, name)
		} else if !slices.ContainsFunc(a, func(a *attr) bool { return a.GetName() == name && a.GetComputed() }) {
			return cty.NilVal, fmt.Errorf("%s.%s is not computed: only computed attributes are mocked or overridden", t.name, name)
		}
	}
	return cty.ObjectVal(attrs), nil
}

// generated is the value a mock gives a computed attribute of type ty
// that has none.
func generated(ty cty.Type) cty.Value {
	switch {
	case ty == cty.String:
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = letters[int(b[i])%len(letters)]
		}
		return cty.StringVal(string(b))
	case ty == cty.Number:
		return cty.Zero
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = generated(at)
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		var elems []cty.Value
		for _, et := range ty.TupleElementTypes() {
			elems = append(elems, generated(et))
		}
		return cty.TupleVal(elems)
	}
	return cty.NullVal(ty)
}

func mockDiags(err error) []*tfplugin6.Diagnostic {
	if err == nil {
		return nil
	}
	return []*tfplugin6.Diagnostic{{Severity: tfplugin6.Diagnostic_ERROR, Summary: "Mock provider", Detail: err.Error()}}
}

// errMocked answers the calls a mock does not serve.
func errMocked(call string) error {
	return fmt.Errorf("a mocked Terraform provider does not answer %s", call)
}

func (m *mockClient) GetMetadata(context.Context, *tfplugin6.GetMetadata_Request, ...grpc.CallOption) (*tfplugin6.GetMetadata_Response, error) {
	return &tfplugin6.GetMetadata_Response{}, nil
}

func (m *mockClient) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request, ...grpc.CallOption) (*tfplugin6.GetProviderSchema_Response, error) {
	return m.schema.resp, nil
}

func (m *mockClient) ValidateProviderConfig(context.Context, *tfplugin6.ValidateProviderConfig_Request, ...grpc.CallOption) (*tfplugin6.ValidateProviderConfig_Response, error) {
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (m *mockClient) ValidateResourceConfig(context.Context, *tfplugin6.ValidateResourceConfig_Request, ...grpc.CallOption) (*tfplugin6.ValidateResourceConfig_Response, error) {
	return &tfplugin6.ValidateResourceConfig_Response{}, nil
}

func (m *mockClient) ValidateDataResourceConfig(context.Context, *tfplugin6.ValidateDataResourceConfig_Request, ...grpc.CallOption) (*tfplugin6.ValidateDataResourceConfig_Response, error) {
	return &tfplugin6.ValidateDataResourceConfig_Response{}, nil
}

func (m *mockClient) ValidateEphemeralResourceConfig(context.Context, *tfplugin6.ValidateEphemeralResourceConfig_Request, ...grpc.CallOption) (*tfplugin6.ValidateEphemeralResourceConfig_Response, error) {
	return &tfplugin6.ValidateEphemeralResourceConfig_Response{}, nil
}

func (m *mockClient) ConfigureProvider(context.Context, *tfplugin6.ConfigureProvider_Request, ...grpc.CallOption) (*tfplugin6.ConfigureProvider_Response, error) {
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

func (m *mockClient) StopProvider(context.Context, *tfplugin6.StopProvider_Request, ...grpc.CallOption) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}

// UpgradeResourceState reads the stored state as it is.
func (m *mockClient) UpgradeResourceState(_ context.Context, req *tfplugin6.UpgradeResourceState_Request, _ ...grpc.CallOption) (*tfplugin6.UpgradeResourceState_Response, error) {
	t, err := m.typed(m.schema.resources, req.GetTypeName())
	if err != nil {
		return nil, err
	}
	v, err := ctyjson.Unmarshal(req.GetRawState().GetJson(), t.ty)
	if err != nil {
		return &tfplugin6.UpgradeResourceState_Response{Diagnostics: mockDiags(err)}, nil
	}
	dv, err := encode(v, t.ty)
	return &tfplugin6.UpgradeResourceState_Response{UpgradedState: dv}, err
}

func (m *mockClient) ReadResource(_ context.Context, req *tfplugin6.ReadResource_Request, _ ...grpc.CallOption) (*tfplugin6.ReadResource_Response, error) {
	return &tfplugin6.ReadResource_Response{NewState: req.GetCurrentState(), Private: req.GetPrivate()}, nil
}

func (m *mockClient) PlanResourceChange(_ context.Context, req *tfplugin6.PlanResourceChange_Request, _ ...grpc.CallOption) (*tfplugin6.PlanResourceChange_Response, error) {
	t, err := m.typed(m.schema.resources, req.GetTypeName())
	if err != nil {
		return nil, err
	}
	proposed, err := decode(req.GetProposedNewState(), t.ty)
	if err != nil {
		return nil, err
	}
	config, err := decode(req.GetConfig(), t.ty)
	if err != nil {
		return nil, err
	}
	planned, err := fill(t, proposed, config, m.resources[t.name])
	if err != nil {
		return &tfplugin6.PlanResourceChange_Response{Diagnostics: mockDiags(err)}, nil
	}
	dv, err := encode(planned, t.ty)
	return &tfplugin6.PlanResourceChange_Response{PlannedState: dv, PlannedPrivate: req.GetPriorPrivate()}, err
}

func (m *mockClient) ApplyResourceChange(_ context.Context, req *tfplugin6.ApplyResourceChange_Request, _ ...grpc.CallOption) (*tfplugin6.ApplyResourceChange_Response, error) {
	return &tfplugin6.ApplyResourceChange_Response{NewState: req.GetPlannedState(), Private: req.GetPlannedPrivate()}, nil
}

func (m *mockClient) ReadDataSource(_ context.Context, req *tfplugin6.ReadDataSource_Request, _ ...grpc.CallOption) (*tfplugin6.ReadDataSource_Response, error) {
	t, err := m.typed(m.schema.data, req.GetTypeName())
	if err != nil {
		return nil, err
	}
	config, err := decode(req.GetConfig(), t.ty)
	if err != nil {
		return nil, err
	}
	state, err := fill(t, config, config, m.data[t.name])
	if err != nil {
		return &tfplugin6.ReadDataSource_Response{Diagnostics: mockDiags(err)}, nil
	}
	dv, err := encode(state, t.ty)
	return &tfplugin6.ReadDataSource_Response{State: dv}, err
}

func (m *mockClient) GetFunctions(context.Context, *tfplugin6.GetFunctions_Request, ...grpc.CallOption) (*tfplugin6.GetFunctions_Response, error) {
	return &tfplugin6.GetFunctions_Response{}, nil
}

func (m *mockClient) ImportResourceState(context.Context, *tfplugin6.ImportResourceState_Request, ...grpc.CallOption) (*tfplugin6.ImportResourceState_Response, error) {
	return nil, errMocked("ImportResourceState")
}

func (m *mockClient) MoveResourceState(context.Context, *tfplugin6.MoveResourceState_Request, ...grpc.CallOption) (*tfplugin6.MoveResourceState_Response, error) {
	return nil, errMocked("MoveResourceState")
}

func (m *mockClient) CallFunction(context.Context, *tfplugin6.CallFunction_Request, ...grpc.CallOption) (*tfplugin6.CallFunction_Response, error) {
	return nil, errMocked("CallFunction")
}

func (m *mockClient) OpenEphemeralResource(context.Context, *tfplugin6.OpenEphemeralResource_Request, ...grpc.CallOption) (*tfplugin6.OpenEphemeralResource_Response, error) {
	return nil, errMocked("OpenEphemeralResource")
}

func (m *mockClient) RenewEphemeralResource(context.Context, *tfplugin6.RenewEphemeralResource_Request, ...grpc.CallOption) (*tfplugin6.RenewEphemeralResource_Response, error) {
	return nil, errMocked("RenewEphemeralResource")
}

func (m *mockClient) CloseEphemeralResource(context.Context, *tfplugin6.CloseEphemeralResource_Request, ...grpc.CallOption) (*tfplugin6.CloseEphemeralResource_Response, error) {
	return &tfplugin6.CloseEphemeralResource_Response{}, nil
}

// memoKey is what the answers of proc are kept by in the memo: the
// provider's binary, with the values of the mock that gave them.
func (p *Provider) memoKey(proc *process) string {
	m, ok := proc.rpc.(*mockClient)
	if !ok {
		return p.exe
	}
	values, _ := json.Marshal([]any{m.resources, m.data})
	return p.exe + "\x00mock " + string(values)
}
