package host_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// BenchmarkProviderCall measures a Check and a Diff of a random password:
// in process, and over gRPC to `cairn plugin serve random` as a plugin
// process, one pair at a time and from concurrent goroutines (as the
// engine's parallel steps call one plugin), beside a bare GetPluginInfo
// round trip, one at a time and concurrently (floor: what gRPC's transport
// costs under any call). The difference between in process and over gRPC
// is the per-call cost of the provider protocol; cpu-µs/call is the CPU
// time of this process (the engine's side: its conversions, gRPC client
// and garbage collection, without the plugin process) per call.
func BenchmarkProviderCall(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		p, err := random.Factory().New(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		benchmarkCalls(b, configure(b, p), false)
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
		configure(b, p)
		b.Run("serial", func(b *testing.B) { benchmarkCalls(b, p, false) })
		b.Run("parallel", func(b *testing.B) { benchmarkCalls(b, p, true) })
		info := func() {
			if _, err := p.GetPluginInfo(context.Background()); err != nil {
				b.Error(err)
			}
		}
		b.Run("floor-serial", func(b *testing.B) { measure(b, false, 1, info) })
		b.Run("floor-parallel", func(b *testing.B) { measure(b, true, 1, info) })
	})
}

// configure configures p with no settings.
func configure(b *testing.B, p provider.Provider) provider.Provider {
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{Inputs: resource.Map{}}); err != nil {
		b.Fatal(err)
	}
	return p
}

// benchmarkCalls creates a random password with p, configured, then makes a
// Check and a Diff of it per iteration.
func benchmarkCalls(b *testing.B, p provider.Provider, parallel bool) {
	ctx := context.Background()
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
	call := func() {
		c, err := p.Check(ctx, provider.CheckRequest{URN: urn, Name: "pw", Type: typ, Olds: checked.Inputs, News: news, Seed: seed})
		if err == nil {
			_, err = p.Diff(ctx, provider.DiffRequest{URN: urn, Name: "pw", Type: typ, ID: created.ID,
				OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: c.Inputs})
		}
		if err != nil {
			b.Error(err)
		}
	}
	measure(b, parallel, 2, call)
}

// measure runs call per iteration, from concurrent goroutines when
// parallel, and reports the CPU time of this process per provider call
// (calls of them in each).
func measure(b *testing.B, parallel bool, calls int, call func()) {
	b.ReportAllocs()
	start := cpuTime(b)
	defer func() {
		b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/float64(calls*b.N), "cpu-µs/call")
	}()
	if parallel {
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				call()
			}
		})
		return
	}
	for b.Loop() {
		call()
	}
}

// cpuTime returns the user and system CPU time of this process so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
