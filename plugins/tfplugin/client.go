package tfplugin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/cairn-iac/cairn/internal/childenv"
	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin5"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// handshake is what Terraform providers expect of their client: a provider
// started without the cookie in its environment refuses to run.
var handshake = plugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// process is a running provider plugin. Whatever protocol it negotiated,
// it is called through the protocol 6 client: a protocol 5 provider is
// adapted to it (see v5).
type process struct {
	client  *plugin.Client
	rpc     tfplugin6.ProviderClient
	version int                // the negotiated protocol major version, 5 or 6
	end     context.CancelFunc // ends the process's context
}

// start launches the provider binary exe and handshakes: the highest
// protocol version both sides speak, 6 or 5, over gRPC with mutual TLS
// (unless TF_DISABLE_PLUGIN_TLS is set, as in Terraform). Messages may be as
// large as gRPC allows, since large providers' schemas and states exceed
// its default 4 MiB. A start that ctx ends kills the provider and returns
// ctx's error.
func start(ctx context.Context, exe string, o Options) (*process, error) {
	life, end := context.WithCancel(context.Background())
	starting := context.AfterFunc(ctx, end) // until the handshake is done
	cmd := exec.CommandContext(life, exe)
	cmd.Dir = o.Dir
	cmd.Env = append(append(childenv.Environ(), logLevels(o.log())...), o.Env...)
	cmd.SysProcAttr = launch.SysProcAttr()
	log := o.log().With("plugin", filepath.Base(exe))
	output := slog.NewLogLogger(log.Handler(), slog.LevelDebug).Writer()
	c := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig: handshake,
		VersionedPlugins: map[int]plugin.PluginSet{
			5: {"provider": grpcPlugin{version: 5}},
			6: {"provider": grpcPlugin{version: 6}},
		},
		Cmd:              cmd,
		SkipHostEnv:      true, // cmd.Env has it, with o.Env taking precedence
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         os.Getenv("TF_DISABLE_PLUGIN_TLS") == "",
		StartTimeout:     o.StartTimeout,
		Logger:           &hclogger{log: o.log()},
		SyncStdout:       output,
		SyncStderr:       output,
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32))},
	})
	proto, err := c.Client()
	if err != nil {
		err = fmt.Errorf("starting the Terraform provider %s: %w", exe, err)
	}
	var raw any
	if err == nil {
		if raw, err = proto.Dispense("provider"); err != nil {
			err = fmt.Errorf("connecting to the Terraform provider %s: %w", exe, err)
		}
	}
	if !starting() && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		c.Kill()
		end()
		return nil, err
	}
	return &process{client: c, rpc: raw.(tfplugin6.ProviderClient), version: c.NegotiatedVersion(), end: end}, nil
}

// kill shuts the provider down: go-plugin asks it to exit, and kills it
// if it has not within two seconds.
func (p *process) kill() {
	if p.client != nil { // nil: a mock's (see mockProcess)
		p.client.Kill()
	}
	p.end()
}

// grpcPlugin is the client side of one protocol version for go-plugin.
type grpcPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	version int
}

func (grpcPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("cairn is only a client of Terraform providers; it serves none")
}

func (g grpcPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	if g.version == 5 {
		return v5{tfplugin5.NewProviderClient(c)}, nil
	}
	return tfplugin6.NewProviderClient(c), nil
}

// v5 is a protocol 5 provider behind the protocol 6 client. The messages
// Cairn uses have the same field names in both versions (some RPCs and
// messages are named differently, and protocol 5 lacks a few fields), so
// each request and response is carried over by its JSON form.
type v5 struct{ c tfplugin5.ProviderClient }

var _ tfplugin6.ProviderClient = v5{}

// msg constrains a type parameter to pointers to protobuf messages.
type msg[T any] interface {
	*T
	proto.Message
}

// call5 calls a protocol 5 RPC with a protocol 6 request and returns its
// response as the protocol 6 response R6.
func call5[R6, Q5, R5 any, PR6 msg[R6], PQ5 msg[Q5], PR5 msg[R5]](ctx context.Context, in proto.Message,
	rpc func(context.Context, PQ5, ...grpc.CallOption) (PR5, error), opts []grpc.CallOption) (PR6, error) {
	req := PQ5(new(Q5))
	if err := carry(in, req); err != nil {
		return nil, err
	}
	resp, err := rpc(ctx, req, opts...)
	if err != nil {
		return nil, err
	}
	out := PR6(new(R6))
	return out, carry(resp, out)
}

// carry copies the fields of one message into another of the other
// protocol version by name, leaving out those it does not have: in the
// binary form when the fields both have are numbered and typed alike
// throughout (all messages but the schema's), else through JSON.
func carry(from, to proto.Message) error {
	var data []byte
	var err error
	if sameWire(from.ProtoReflect().Descriptor(), to.ProtoReflect().Descriptor()) {
		data, err = proto.Marshal(from)
		if err == nil {
			err = proto.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(data, to)
		}
	} else {
		data, err = protojson.Marshal(from)
		if err == nil {
			err = protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(data, to)
		}
	}
	if err != nil {
		return fmt.Errorf("carrying %s between protocol versions 5 and 6: %w", from.ProtoReflect().Descriptor().FullName(), err)
	}
	return nil
}

// wireAlike caches sameWire by pair of message names: each answer is
// computed once, and seen only whole, never the assumption made while
// recursive messages are compared.
var wireAlike sync.Map // [2]protoreflect.FullName → func() bool (sync.OnceValue)

// sameWire reports whether the fields messages a and b have in common
// have the same numbers, kinds and cardinalities, and so do their
// messages' and enums' in turn: then the binary form of one reads as the
// other, the fields only one has being unknown to the other.
func sameWire(a, b protoreflect.MessageDescriptor) bool {
	key := [2]protoreflect.FullName{a.FullName(), b.FullName()}
	v, ok := wireAlike.Load(key)
	if !ok {
		v, _ = wireAlike.LoadOrStore(key, sync.OnceValue(func() bool {
			return compareWire(a, b, map[[2]protoreflect.FullName]bool{})
		}))
	}
	return v.(func() bool)()
}

// compareWire is sameWire without the cache; pending holds the pairs
// being compared, assumed alike while they are (a recursive message is
// alike if nothing else differs).
func compareWire(a, b protoreflect.MessageDescriptor, pending map[[2]protoreflect.FullName]bool) bool {
	key := [2]protoreflect.FullName{a.FullName(), b.FullName()}
	if pending[key] {
		return true
	}
	pending[key] = true
	same := true
	for i := 0; i < a.Fields().Len() && same; i++ {
		f := a.Fields().Get(i)
		g := b.Fields().ByName(f.Name())
		switch {
		case g == nil:
		case f.Number() != g.Number() || f.Kind() != g.Kind() || f.Cardinality() != g.Cardinality() || f.IsMap() != g.IsMap():
			same = false
		case f.Kind() == protoreflect.MessageKind || f.Kind() == protoreflect.GroupKind:
			same = compareWire(f.Message(), g.Message(), pending)
		case f.Kind() == protoreflect.EnumKind:
			for j := 0; j < f.Enum().Values().Len() && same; j++ {
				v := f.Enum().Values().Get(j)
				w := g.Enum().Values().ByName(v.Name())
				same = w == nil || w.Number() == v.Number()
			}
		}
	}
	for i := 0; i < b.Fields().Len() && same; i++ {
		g := b.Fields().Get(i)
		if f := a.Fields().ByNumber(g.Number()); f != nil && f.Name() != g.Name() {
			same = false // a number that means another field
		}
	}
	return same
}

func (p v5) GetMetadata(ctx context.Context, in *tfplugin6.GetMetadata_Request, opts ...grpc.CallOption) (*tfplugin6.GetMetadata_Response, error) {
	return call5[tfplugin6.GetMetadata_Response](ctx, in, p.c.GetMetadata, opts)
}

func (p v5) GetProviderSchema(ctx context.Context, in *tfplugin6.GetProviderSchema_Request, opts ...grpc.CallOption) (*tfplugin6.GetProviderSchema_Response, error) {
	return call5[tfplugin6.GetProviderSchema_Response](ctx, in, p.c.GetSchema, opts)
}

func (p v5) ValidateProviderConfig(ctx context.Context, in *tfplugin6.ValidateProviderConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateProviderConfig_Response, error) {
	return call5[tfplugin6.ValidateProviderConfig_Response](ctx, in, p.c.PrepareProviderConfig, opts)
}

func (p v5) ValidateResourceConfig(ctx context.Context, in *tfplugin6.ValidateResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateResourceConfig_Response, error) {
	return call5[tfplugin6.ValidateResourceConfig_Response](ctx, in, p.c.ValidateResourceTypeConfig, opts)
}

func (p v5) ValidateDataResourceConfig(ctx context.Context, in *tfplugin6.ValidateDataResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateDataResourceConfig_Response, error) {
	return call5[tfplugin6.ValidateDataResourceConfig_Response](ctx, in, p.c.ValidateDataSourceConfig, opts)
}

func (p v5) UpgradeResourceState(ctx context.Context, in *tfplugin6.UpgradeResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.UpgradeResourceState_Response, error) {
	return call5[tfplugin6.UpgradeResourceState_Response](ctx, in, p.c.UpgradeResourceState, opts)
}

func (p v5) ConfigureProvider(ctx context.Context, in *tfplugin6.ConfigureProvider_Request, opts ...grpc.CallOption) (*tfplugin6.ConfigureProvider_Response, error) {
	return call5[tfplugin6.ConfigureProvider_Response](ctx, in, p.c.Configure, opts)
}

func (p v5) ReadResource(ctx context.Context, in *tfplugin6.ReadResource_Request, opts ...grpc.CallOption) (*tfplugin6.ReadResource_Response, error) {
	return call5[tfplugin6.ReadResource_Response](ctx, in, p.c.ReadResource, opts)
}

func (p v5) PlanResourceChange(ctx context.Context, in *tfplugin6.PlanResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.PlanResourceChange_Response, error) {
	return call5[tfplugin6.PlanResourceChange_Response](ctx, in, p.c.PlanResourceChange, opts)
}

func (p v5) ApplyResourceChange(ctx context.Context, in *tfplugin6.ApplyResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.ApplyResourceChange_Response, error) {
	return call5[tfplugin6.ApplyResourceChange_Response](ctx, in, p.c.ApplyResourceChange, opts)
}

func (p v5) ImportResourceState(ctx context.Context, in *tfplugin6.ImportResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.ImportResourceState_Response, error) {
	return call5[tfplugin6.ImportResourceState_Response](ctx, in, p.c.ImportResourceState, opts)
}

func (p v5) MoveResourceState(ctx context.Context, in *tfplugin6.MoveResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.MoveResourceState_Response, error) {
	return call5[tfplugin6.MoveResourceState_Response](ctx, in, p.c.MoveResourceState, opts)
}

func (p v5) ReadDataSource(ctx context.Context, in *tfplugin6.ReadDataSource_Request, opts ...grpc.CallOption) (*tfplugin6.ReadDataSource_Response, error) {
	return call5[tfplugin6.ReadDataSource_Response](ctx, in, p.c.ReadDataSource, opts)
}

func (p v5) GetFunctions(ctx context.Context, in *tfplugin6.GetFunctions_Request, opts ...grpc.CallOption) (*tfplugin6.GetFunctions_Response, error) {
	return call5[tfplugin6.GetFunctions_Response](ctx, in, p.c.GetFunctions, opts)
}

func (p v5) CallFunction(ctx context.Context, in *tfplugin6.CallFunction_Request, opts ...grpc.CallOption) (*tfplugin6.CallFunction_Response, error) {
	return call5[tfplugin6.CallFunction_Response](ctx, in, p.c.CallFunction, opts)
}

func (p v5) StopProvider(ctx context.Context, in *tfplugin6.StopProvider_Request, opts ...grpc.CallOption) (*tfplugin6.StopProvider_Response, error) {
	return call5[tfplugin6.StopProvider_Response](ctx, in, p.c.Stop, opts)
}

func (p v5) ValidateEphemeralResourceConfig(ctx context.Context, in *tfplugin6.ValidateEphemeralResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateEphemeralResourceConfig_Response, error) {
	return call5[tfplugin6.ValidateEphemeralResourceConfig_Response](ctx, in, p.c.ValidateEphemeralResourceConfig, opts)
}

func (p v5) OpenEphemeralResource(ctx context.Context, in *tfplugin6.OpenEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.OpenEphemeralResource_Response, error) {
	return call5[tfplugin6.OpenEphemeralResource_Response](ctx, in, p.c.OpenEphemeralResource, opts)
}

func (p v5) RenewEphemeralResource(ctx context.Context, in *tfplugin6.RenewEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.RenewEphemeralResource_Response, error) {
	return call5[tfplugin6.RenewEphemeralResource_Response](ctx, in, p.c.RenewEphemeralResource, opts)
}

func (p v5) CloseEphemeralResource(ctx context.Context, in *tfplugin6.CloseEphemeralResource_Request, opts ...grpc.CallOption) (*tfplugin6.CloseEphemeralResource_Response, error) {
	return call5[tfplugin6.CloseEphemeralResource_Response](ctx, in, p.c.CloseEphemeralResource, opts)
}
