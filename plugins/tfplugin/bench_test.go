package tfplugin

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// The floor benchmarks measure the least each phase of a stack of
// null_resource can cost any client: only the calls a Terraform provider
// must answer for each resource, made ten at a time straight to
// hashicorp/null (terraform-provider-null on PATH), with no engine, state or
// display. Besides the wall time per resource they report the provider
// process's own CPU time per resource (provider-cpu-ns/op) and how many
// cores it kept busy (provider-cores), which says whether the provider is
// CPU-bound on the machine. They are what cairnbench's rows of
// null_resource are measured against (BENCHMARKS.md).
//
//	PATH=$PATH:DIR go test ./plugins/tfplugin -run '^$' -bench 'Null.*Calls' -benchtime 1000x -count 3

// BenchmarkNullCreateCalls is the floor of a create: ValidateResourceConfig,
// PlanResourceChange and ApplyResourceChange of a new resource.
func BenchmarkNullCreateCalls(b *testing.B) {
	n := startNull(b)
	n.measure(b, func(i int) error {
		_, err := n.create(i)
		return err
	})
}

// BenchmarkNullPlanCalls is the floor of a no-change plan: one
// PlanResourceChange per resource from its recorded state to the same
// configuration, the call a plan that does not trust the provider cannot
// skip.
func BenchmarkNullPlanCalls(b *testing.B) {
	n := startNull(b)
	states := n.created(b)
	n.measure(b, func(i int) error {
		config := n.encode(n.config(i))
		resp, err := n.p.rpc.PlanResourceChange(n.ctx, &tfplugin6.PlanResourceChange_Request{TypeName: "null_resource",
			PriorState: states[i], ProposedNewState: states[i], Config: config})
		if err == nil && len(resp.GetRequiresReplace()) > 0 {
			err = fmt.Errorf("resource %d: the plan replaces it", i)
		}
		return err
	})
}

// BenchmarkNullReadCalls is the floor of a refresh: one ReadResource per
// resource.
func BenchmarkNullReadCalls(b *testing.B) {
	n := startNull(b)
	states := n.created(b)
	n.measure(b, func(i int) error {
		_, err := n.p.rpc.ReadResource(n.ctx, &tfplugin6.ReadResource_Request{TypeName: "null_resource", CurrentState: states[i]})
		return err
	})
}

// BenchmarkNullDestroyCalls is the floor of a destroy: one
// ApplyResourceChange to null per resource, after a PlanResourceChange to
// null, which a provider that declares plan_destroy (as hashicorp/null
// does) must be asked first.
func BenchmarkNullDestroyCalls(b *testing.B) {
	n := startNull(b)
	states := n.created(b)
	none := n.encode(cty.NullVal(n.ty))
	n.measure(b, func(i int) error {
		planned := none
		if n.planDestroy {
			resp, err := n.p.rpc.PlanResourceChange(n.ctx, &tfplugin6.PlanResourceChange_Request{TypeName: "null_resource",
				PriorState: states[i], ProposedNewState: none, Config: none})
			if err != nil {
				return err
			}
			planned = resp.GetPlannedState()
		}
		_, err := n.p.rpc.ApplyResourceChange(n.ctx, &tfplugin6.ApplyResourceChange_Request{TypeName: "null_resource",
			PriorState: states[i], PlannedState: planned, Config: none})
		return err
	})
}

// nullBench is hashicorp/null started and configured for a floor benchmark.
type nullBench struct {
	ctx context.Context
	p   *process
	ty  cty.Type // null_resource's
	// planDestroy is set when the provider asks to plan destroys.
	planDestroy bool
}

// startNull starts terraform-provider-null, reads its schema and configures
// it; it skips b when the provider is not on PATH.
func startNull(b *testing.B) *nullBench {
	exe, err := exec.LookPath("terraform-provider-null")
	if err != nil {
		b.Skip("SKIPPED: terraform-provider-null is not on PATH")
	}
	n := &nullBench{ctx: context.Background(), ty: cty.Object(map[string]cty.Type{"id": cty.String, "triggers": cty.Map(cty.String)})}
	if n.p, err = start(n.ctx, exe, Options{Log: slog.New(slog.DiscardHandler)}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(n.p.kill)
	schema, err := n.p.rpc.GetProviderSchema(n.ctx, &tfplugin6.GetProviderSchema_Request{})
	if err != nil {
		b.Fatal(err)
	}
	n.planDestroy = schema.GetServerCapabilities().GetPlanDestroy()
	empty, err := encode(cty.EmptyObjectVal, cty.EmptyObject)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := n.p.rpc.ConfigureProvider(n.ctx, &tfplugin6.ConfigureProvider_Request{Config: empty}); err != nil {
		b.Fatal(err)
	}
	return n
}

// config is the configuration of the i-th null_resource: triggers = { i = "<i>" }.
func (n *nullBench) config(i int) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": cty.NullVal(cty.String),
		"triggers": cty.MapVal(map[string]cty.Value{"i": cty.StringVal(strconv.Itoa(i))})})
}

func (n *nullBench) encode(v cty.Value) *tfplugin6.DynamicValue {
	dv, err := encode(v, n.ty)
	if err != nil {
		panic(err)
	}
	return dv
}

// create creates the i-th resource as a client must, and returns its state.
func (n *nullBench) create(i int) (*tfplugin6.DynamicValue, error) {
	config := n.encode(n.config(i))
	prior := n.encode(cty.NullVal(n.ty))
	if _, err := n.p.rpc.ValidateResourceConfig(n.ctx, &tfplugin6.ValidateResourceConfig_Request{TypeName: "null_resource", Config: config}); err != nil {
		return nil, err
	}
	plan, err := n.p.rpc.PlanResourceChange(n.ctx, &tfplugin6.PlanResourceChange_Request{TypeName: "null_resource",
		PriorState: prior, ProposedNewState: config, Config: config})
	if err != nil {
		return nil, err
	}
	resp, err := n.p.rpc.ApplyResourceChange(n.ctx, &tfplugin6.ApplyResourceChange_Request{TypeName: "null_resource",
		PriorState: prior, PlannedState: plan.PlannedState, PlannedPrivate: plan.PlannedPrivate, Config: config})
	if err == nil && len(resp.GetDiagnostics()) > 0 {
		err = fmt.Errorf("resource %d: %v", i, resp.GetDiagnostics())
	}
	return resp.GetNewState(), err
}

// created creates b.N resources, untimed, and returns their states.
func (n *nullBench) created(b *testing.B) []*tfplugin6.DynamicValue {
	states := make([]*tfplugin6.DynamicValue, b.N)
	for i := range states {
		var err error
		if states[i], err = n.create(i); err != nil {
			b.Fatal(err)
		}
	}
	return states
}

// measure makes call(i) for every i below b.N from ten goroutines and
// reports the provider process's CPU time per call and the cores it kept
// busy.
func (n *nullBench) measure(b *testing.B, call func(i int) error) {
	pid := n.p.client.ReattachConfig().Pid
	cpu := processCPU(b, pid)
	b.ResetTimer()
	start := time.Now()
	work := make(chan int)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			for i := range work {
				if err := call(i); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for i := range b.N {
		work <- i
	}
	close(work)
	wg.Wait()
	b.StopTimer()
	used := processCPU(b, pid) - cpu
	b.ReportMetric(float64(used)/float64(b.N), "provider-cpu-ns/op")
	b.ReportMetric(used.Seconds()/time.Since(start).Seconds(), "provider-cores")
}

// processCPU returns the CPU time (user and system) process pid has used,
// from /proc.
func processCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("SKIPPED: no /proc to read the provider's CPU time: %v", err)
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are the 14th and 15th of the line, in clock ticks (100 a second).
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	user, _ := strconv.Atoi(f[11])
	system, _ := strconv.Atoi(f[12])
	return time.Duration(user+system) * 10 * time.Millisecond
}
