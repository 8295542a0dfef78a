package host_test

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/plugintest"
	"github.com/cairn-iac/cairn/plugins/random"
)

// BenchmarkProviderCall measures a Check and a Diff of a random password:
// in process, and over gRPC to `cairn plugin serve random` as a plugin
// process. The difference between the two is Cairn's per-call overhead.
func BenchmarkProviderCall(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		p, err := random.Factory().New(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		benchmarkCalls(b, p)
	})
	b.Run("grpc", func(b *testing.B) {
		cairn := plugintest.Link(b, b.TempDir(), "cairn")
		r := host.NewResolver(host.ResolverOptions{Builtins: builtins, Isolate: []string{"random"},
			ServeCommand: func(pkg string) []string { return []string{cairn, "plugin", "serve", pkg} }})
		defer r.Close()
		p, err := r.Load(context.Background(), "random", "")
		if err != nil {
			b.Fatal(err)
		}
		benchmarkCalls(b, p)
	})
}

func benchmarkCalls(b *testing.B, p provider.Provider) {
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Map{}}); err != nil {
		b.Fatal(err)
	}
	const typ = "random:index/randomPassword:RandomPassword"
	urn := resource.URN("urn:pulumi:dev::proj::" + typ + "::pw")
	news := resource.Map{"length": resource.Number(24), "special": resource.Bool(true),
		"keepers": resource.Object(resource.Map{"env": resource.String("prod")})}
	seed := func() ([]byte, error) { return make([]byte, 32), nil }
	checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, Name: "pw", Type: typ, News: news, Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Name: "pw", Type: typ, Inputs: checked.Inputs})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := p.Check(ctx, provider.CheckRequest{URN: urn, Name: "pw", Type: typ, Olds: checked.Inputs, News: news, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Diff(ctx, provider.DiffRequest{URN: urn, Name: "pw", Type: typ, ID: created.ID,
			OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: c.Inputs}); err != nil {
			b.Fatal(err)
		}
	}
}
