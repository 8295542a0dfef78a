package deploy

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// nopProvider does nothing, as fast as it can: what remains is the engine.
type nopProvider struct{ provider.Unimplemented }

func (nopProvider) Pkg() string { return "pkgA" }
func (nopProvider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: "1.0.0"}, nil
}
func (nopProvider) Check(_ context.Context, r provider.CheckRequest) (provider.CheckResponse, error) {
	return provider.CheckResponse{Inputs: r.News}, nil
}
func (nopProvider) Diff(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}
func (nopProvider) Create(_ context.Context, r provider.CreateRequest) (provider.CreateResponse, error) {
	return provider.CreateResponse{ID: resource.ID(r.URN.Name()), Outputs: r.Inputs}, nil
}
func (nopProvider) Update(_ context.Context, r provider.UpdateRequest) (provider.UpdateResponse, error) {
	return provider.UpdateResponse{Outputs: r.News}, nil
}
func (nopProvider) Delete(context.Context, provider.DeleteRequest) error { return nil }

var nopHost = provider.Factories{{Pkg: "pkgA", Version: "1.0.0", New: func(context.Context) (provider.Provider, error) { return nopProvider{}, nil }}}

// wideProgram registers n independent resources concurrently, as an
// evaluated document does.
func wideProgram(n int) ProgramFunc {
	return func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var first error
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "pkgA:index:Thing", Name: fmt.Sprintf("r%d", i),
					Custom: true, Parent: root, Properties: resource.Map{"length": resource.Number(8), "name": resource.String("x")}})
				if err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return first
	}
}

func benchOptions(n int, dry bool) Options {
	return Options{Project: "proj", Stack: "dev", Host: nopHost, Program: wideProgram(n), DryRun: dry}
}

func BenchmarkCreate(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Update(context.Background(), benchOptions(n, false), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1000, "µs/resource")
		})
	}
}

// BenchmarkNoChangePreview previews an unchanged stack with the fast path
// (no Check or Diff) and without it (every call made).
func BenchmarkNoChangePreview(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, fast := range []bool{true, false} {
			b.Run(fmt.Sprintf("%d/fast=%v", n, fast), func(b *testing.B) {
				benchNoChangePreview(b, n, !fast)
			})
		}
	}
}

func benchNoChangePreview(b *testing.B, n int, noFastPath bool) {
	res, err := Update(context.Background(), benchOptions(n, false), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		opts := benchOptions(n, true)
		opts.NoFastPath = noFastPath
		r, err := Update(context.Background(), opts, res.Snapshot)
		if err != nil {
			b.Fatal(err)
		}
		if r.HasChanges() {
			b.Fatalf("unexpected changes: %v", r.Changes)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1000, "µs/resource")
}
