package monitor_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
	"github.com/cairn-iac/cairn/plugins/monitor"
)

// fake is a deploy.Monitor that records what it is asked and answers as
// scripted.
type fake struct {
	mu       sync.Mutex
	register []deploy.RegisterRequest
	outputs  map[resource.URN]resource.Map
	invoke   []deploy.InvokeRequest
	read     []deploy.ReadResourceRequest
	call     []deploy.CallRequest

	registerResp *deploy.RegisterResponse
	err          error
}

func (f *fake) RegisterResource(_ context.Context, req deploy.RegisterRequest) (*deploy.RegisterResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.register = append(f.register, req)
	if f.err != nil {
		return nil, f.err
	}
	return f.registerResp, nil
}

func (f *fake) RegisterResourceOutputs(_ context.Context, urn resource.URN, outputs resource.Map) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.outputs[urn] = outputs
	return nil
}

func (f *fake) ReadResource(_ context.Context, req deploy.ReadResourceRequest) (*deploy.ReadResourceResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.read = append(f.read, req)
	return &deploy.ReadResourceResponse{URN: "urn:pulumi:dev::p::kv:index:Item::r",
		Outputs: resource.Map{"pw": resource.MakeSecret(resource.String("s"))}}, nil
}

func (f *fake) Invoke(_ context.Context, req deploy.InvokeRequest) (*deploy.InvokeResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.invoke = append(f.invoke, req)
	return &deploy.InvokeResponse{Unknown: true}, nil
}

func (f *fake) Call(_ context.Context, req deploy.CallRequest) (*deploy.CallResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call = append(f.call, req)
	return &deploy.CallResponse{Return: resource.Map{"r": resource.Number(1)},
		ReturnDependencies: map[string][]resource.URN{"r": {"urn:pulumi:dev::p::kv:index:Item::a"}}}, nil
}

func (f *fake) Forget(context.Context, resource.URN) error { return nil }

func (f *fake) ForgetComponent(context.Context, resource.URN, string) error { return nil }

// serve serves f and returns clients of both services.
func serve(t *testing.T, f *fake, diag func(deploy.DiagEvent)) (pulumirpc.ResourceMonitorClient, pulumirpc.EngineClient) {
	t.Helper()
	if f.outputs == nil {
		f.outputs = map[resource.URN]resource.Map{}
	}
	srv, err := monitor.Serve(f, monitor.Options{Diag: diag})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	conn, err := grpc.NewClient(srv.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return pulumirpc.NewResourceMonitorClient(conn), pulumirpc.NewEngineClient(conn)
}

func wire(t *testing.T, m resource.Map) *structpb.Struct {
	t.Helper()
	s, err := rpc.MarshalMap(m, rpc.Everything)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const (
	urnA = resource.URN("urn:pulumi:dev::p::kv:index:Item::a")
	urnB = resource.URN("urn:pulumi:dev::p::kv:index:Item::b")
)

func TestRegisterResourceReadsEverything(t *testing.T) {
	f := &fake{registerResp: &deploy.RegisterResponse{URN: urnB, Outputs: resource.Map{}}}
	client, _ := serve(t, f, nil)
	out := resource.NewOutput(resource.Output{Element: resource.String("o"), Known: true, Dependencies: []resource.URN{urnA}})
	dbr := true
	_, err := client.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{
		Type: "kv:index:Item", Name: "b", Custom: true, Parent: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
		Object: wire(t, resource.Map{
			"secret": resource.MakeSecret(resource.String("s")), "unknown": resource.Unknown(),
			"ref": resource.NewRef(resource.ResourceRef{URN: urnA, ID: resource.String("id-a")}), "output": out,
			"asset": resource.NewAsset(&resource.Asset{Text: "hello"}),
		}),
		PropertyDependencies: map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{"output": {Urns: []string{string(urnA)}}},
		Dependencies:         []string{string(urnA)},
		AliasURNs:            []string{"urn:pulumi:dev::p::kv:index:Item::old"},
		Aliases: []*pulumirpc.Alias{{Alias: &pulumirpc.Alias_Spec_{Spec: &pulumirpc.Alias_Spec{Name: "older",
			Parent: &pulumirpc.Alias_Spec_NoParent{NoParent: true}}}}},
		CustomTimeouts:      &pulumirpc.RegisterResourceRequest_CustomTimeouts{Create: "5m", Delete: "90s"},
		DeleteBeforeReplace: dbr, ImportId: "imp", Protect: &dbr, Version: "1.2.3", PluginDownloadURL: "https://get.example",
		EnvVarMappings:     map[string]string{"KV_TOKEN": "CI_KV_TOKEN"},
		ReplacementTrigger: structpb.NewStringValue("t"), SourcePosition: &pulumirpc.SourcePosition{Uri: "file:///p/main.go", Line: 3, Column: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := f.register[0]
	wantProps := resource.Map{
		"secret": resource.MakeSecret(resource.String("s")), "unknown": resource.Unknown(),
		"ref": resource.NewRef(resource.ResourceRef{URN: urnA, ID: resource.String("id-a")}), "output": out,
		"asset": resource.NewAsset(resource.NewTextAsset("hello")),
	}
	if !got.Properties.Equal(wantProps) {
		t.Errorf("properties = %v, want %v", got.Properties, wantProps)
	}
	if a := got.Properties["asset"].AssetValue(); a.Hash != resource.NewTextAsset("hello").Hash {
		t.Errorf("the asset's hash was not computed: %+v", a)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"dependencies", got.Dependencies, []resource.URN{urnA}},
		{"property dependencies", got.PropertyDependencies, map[string][]resource.URN{"output": {urnA}}},
		{"aliases", got.Aliases, []deploy.Alias{{URN: "urn:pulumi:dev::p::kv:index:Item::old"}, {Name: "older", NoParent: true}}},
		{"timeouts", *got.CustomTimeouts, resource.CustomTimeouts{Create: 300, Delete: 90}},
		{"delete before replace", *got.DeleteBeforeReplace, true},
		{"protect", *got.Protect, true},
		{"import", got.ImportID, resource.ID("imp")},
		{"version", got.Version, "1.2.3"},
		{"download URL", got.PluginDownloadURL, "https://get.example"},
		{"env var mappings", got.EnvVarMappings, map[string]string{"KV_TOKEN": "CI_KV_TOKEN"}},
		{"trigger", got.ReplacementTrigger, resource.String("t")},
		{"source position", got.SourcePosition, "file:///p/main.go#3,4"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestRegisterResourceAnswersWhatTheSDKAccepts(t *testing.T) {
	secret := resource.MakeSecret(resource.String("s"))
	ref := resource.NewRef(resource.ResourceRef{URN: urnA, ID: resource.String("id-a")})
	f := &fake{registerResp: &deploy.RegisterResponse{URN: urnB, ID: resource.UnknownID,
		Outputs: resource.Map{"secret": secret, "unknown": resource.Unknown(), "ref": ref}, Stables: []string{"ref"}}}
	client, _ := serve(t, f, nil)
	tests := []struct {
		name                             string
		secrets, resources, partialValue bool
		want                             resource.Map
	}{
		{"an SDK that accepts nothing", false, false, false,
			resource.Map{"secret": resource.String("s"), "ref": resource.String("id-a")}},
		{"an SDK that accepts everything", true, true, true,
			resource.Map{"secret": secret, "unknown": resource.Unknown(), "ref": ref}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := client.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{
				Type: "kv:index:Item", Name: "b", Custom: true, AcceptSecrets: tt.secrets, AcceptResources: tt.resources,
				SupportsPartialValues: tt.partialValue})
			if err != nil {
				t.Fatal(err)
			}
			got, err := rpc.UnmarshalMap(resp.GetObject(), rpc.Everything)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tt.want) {
				t.Errorf("object = %v, want %v", got, tt.want)
			}
			if resp.GetId() != "" || resp.GetUrn() != string(urnB) || !reflect.DeepEqual(resp.GetStables(), []string{"ref"}) {
				t.Errorf("response = %v; want the URN, no ID in a preview, and the stables", resp)
			}
		})
	}
}

func TestMonitorFeaturesAndPackages(t *testing.T) {
	f := &fake{registerResp: &deploy.RegisterResponse{URN: urnB}}
	client, _ := serve(t, f, nil)
	ctx := context.Background()
	for id, want := range map[string]bool{"secrets": true, "resourceReferences": true, "outputValues": true,
		"aliasSpecs": true, "deletedWith": true, "transforms": false, "resourceHooks": false, "parameterization": true} {
		resp, err := client.SupportsFeature(ctx, &pulumirpc.SupportsFeatureRequest{Id: id})
		if err != nil || resp.GetHasSupport() != want {
			t.Errorf("SupportsFeature(%s) = %v, %v; want %v", id, resp.GetHasSupport(), err, want)
		}
	}
	pkg, err := client.RegisterPackage(ctx, &pulumirpc.RegisterPackageRequest{Name: "kv", Version: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "kv:index:Item", Name: "b", Custom: true,
		PackageRef: pkg.GetRef()}); err != nil {
		t.Fatal(err)
	}
	if v := f.register[0].Version; v != "2.0.0" {
		t.Errorf("version through the package reference = %q, want 2.0.0", v)
	}
	_, err = client.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "kv:index:Item", Name: "c", PackageRef: "nope"})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("an unknown package reference: %v, want INVALID_ARGUMENT", err)
	}
	param, err := client.RegisterPackage(ctx, &pulumirpc.RegisterPackageRequest{Name: "tf", Version: "0.8.0",
		Parameterization: &pulumirpc.Parameterization{Name: "aws", Version: "1.0.0", Value: []byte("hashicorp/aws")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "aws:index:Bucket", Name: "p", Custom: true,
		PackageRef: param.GetRef()}); err != nil {
		t.Fatal(err)
	}
	want := &deploy.Parameterization{Plugin: "tf", Name: "aws", Version: "1.0.0", Value: []byte("hashicorp/aws")}
	if got := f.register[1]; got.Version != "0.8.0" || !reflect.DeepEqual(got.Parameterization, want) {
		t.Errorf("through a parameterized package: version %q, %+v; want 0.8.0, %+v", got.Version, got.Parameterization, want)
	}
	_, err = client.RegisterPackage(ctx, &pulumirpc.RegisterPackageRequest{Name: "tf",
		Parameterization: &pulumirpc.Parameterization{Name: "aws", Version: "1.0.0"}, Extension: &pulumirpc.Parameterization{Name: "aws"}})
	if status.Code(err) != codes.Unimplemented || !strings.Contains(err.Error(), "extends") {
		t.Errorf("an extension package: %v, want UNIMPLEMENTED", err)
	}
	_, err = client.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "kv:index:Item", Name: "d",
		Transforms: []*pulumirpc.Callback{{Token: "t"}}})
	if status.Code(err) != codes.Unimplemented {
		t.Errorf("a registration with transforms: %v, want UNIMPLEMENTED", err)
	}
	if _, err := client.SignalAndWaitForShutdown(ctx, &emptypb.Empty{}); err != nil {
		t.Errorf("SignalAndWaitForShutdown: %v", err)
	}
	if _, err := client.GetDeploymentInfo(ctx, &emptypb.Empty{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("GetDeploymentInfo: %v, want UNIMPLEMENTED", err)
	}
}

func TestOutputsReadInvokeCall(t *testing.T) {
	f := &fake{}
	client, _ := serve(t, f, nil)
	ctx := context.Background()
	secret := resource.MakeSecret(resource.String("s"))

	if _, err := client.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: string(urnA),
		Outputs: wire(t, resource.Map{"o": secret})}); err != nil {
		t.Fatal(err)
	}
	if got := f.outputs[urnA]; !got.Equal(resource.Map{"o": secret}) {
		t.Errorf("outputs = %v", got)
	}

	read, err := client.ReadResource(ctx, &pulumirpc.ReadResourceRequest{Id: "r-1", Type: "kv:index:Item", Name: "r",
		Properties: wire(t, resource.Map{"x": resource.Number(1)}), AcceptSecrets: false})
	if err != nil {
		t.Fatal(err)
	}
	props, _ := rpc.UnmarshalMap(read.GetProperties(), rpc.Everything)
	if read.GetId() != "r-1" || !props.Equal(resource.Map{"pw": resource.String("s")}) || f.read[0].ID != "r-1" {
		t.Errorf("ReadResource = %v (asked %+v)", read, f.read[0])
	}

	inv, err := client.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "kv:index:lookup", Args: wire(t, resource.Map{"id": secret}),
		Provider: "urn:pulumi:dev::p::pulumi:providers:kv::default::1", PluginDownloadURL: "https://get.example"})
	if err != nil || !inv.GetUnknown() {
		t.Errorf("Invoke = %v, %v; want an unknown result", inv, err)
	}
	if got := f.invoke[0]; !got.Args.Equal(resource.Map{"id": secret}) || got.Provider == "" || got.PluginDownloadURL != "https://get.example" {
		t.Errorf("invoke request = %+v", got)
	}

	call, err := client.Call(ctx, &pulumirpc.ResourceCallRequest{Tok: "kv:index:Pair/m",
		ArgDependencies: map[string]*pulumirpc.ResourceCallRequest_ArgumentDependencies{"a": {Urns: []string{string(urnA)}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.call[0].ArgDependencies, map[string][]resource.URN{"a": {urnA}}) ||
		!reflect.DeepEqual(call.GetReturnDependencies()["r"].GetUrns(), []string{string(urnA)}) {
		t.Errorf("Call = %v (asked %+v)", call, f.call[0])
	}
}

func TestEngineErrorsAndLogs(t *testing.T) {
	var mu sync.Mutex
	var logged []deploy.DiagEvent
	f := &fake{err: errors.New("resource b: duplicate resource URN")}
	client, engine := serve(t, f, func(e deploy.DiagEvent) {
		mu.Lock()
		logged = append(logged, e)
		mu.Unlock()
	})
	ctx := context.Background()
	_, err := client.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "kv:index:Item", Name: "b"})
	if err == nil || status.Convert(err).Message() != "resource b: duplicate resource URN" {
		t.Errorf("got %v, want the engine's error", err)
	}
	if _, err := engine.Log(ctx, &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_ERROR, Message: "boom", Urn: string(urnA)}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []deploy.DiagEvent{{URN: urnA, Severity: deploy.SeverityError, Message: "boom"}}; !reflect.DeepEqual(logged, want) {
		t.Errorf("logged %+v, want %+v", logged, want)
	}
}

// TestFailedStepsAnswerUnavailable answers a registration whose step failed,
// or that came after the deployment was cancelled, as Pulumi's engine does:
// UNAVAILABLE, which SDKs take to mean the deployment is stopping. Other
// errors keep their message, as UNKNOWN.
func TestFailedStepsAnswerUnavailable(t *testing.T) {
	tests := []struct {
		err  error
		code codes.Code
	}{
		{&deploy.StepError{URN: urnA, Op: deploy.OpCreate, Err: errors.New("quota exceeded")}, codes.Unavailable},
		{deploy.ErrCancelled, codes.Unavailable},
		{errors.New("resource b: duplicate resource URN"), codes.Unknown},
	}
	for _, tt := range tests {
		client, _ := serve(t, &fake{err: tt.err}, nil)
		_, err := client.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{Type: "kv:index:Item", Name: "a", Custom: true})
		if st := status.Convert(err); st.Code() != tt.code || st.Message() != tt.err.Error() {
			t.Errorf("%v: got %v, want %v with its message", tt.err, err, tt.code)
		}
	}
}
