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
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// BenchmarkNullCreateCalls measures the least a create of null_resource
// can cost: the three calls a Terraform provider must answer for each
// resource (ValidateResourceConfig, PlanResourceChange,
// ApplyResourceChange), made ten at a time straight to hashicorp/null
// (terraform-provider-null on PATH), with no engine, state or display.
// Besides the time per resource it reports the provider process's own CPU
// time per resource, the floor under any client's create.
func BenchmarkNullCreateCalls(b *testing.B) {
	exe, err := exec.LookPath("terraform-provider-null")
	if err != nil {
		b.Skip("SKIPPED: terraform-provider-null is not on PATH")
	}
	ctx := context.Background()
	p, err := start(ctx, exe, Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer p.kill()
	if _, err := p.rpc.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{}); err != nil {
		b.Fatal(err)
	}
	empty, _ := msgpack.Marshal(cty.EmptyObjectVal, cty.EmptyObject)
	if _, err := p.rpc.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{Config: &tfplugin6.DynamicValue{Msgpack: empty}}); err != nil {
		b.Fatal(err)
	}
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "triggers": cty.Map(cty.String)})
	none, _ := msgpack.Marshal(cty.NullVal(ty), ty)
	create := func(i int) error {
		raw, err := msgpack.Marshal(cty.ObjectVal(map[string]cty.Value{"id": cty.NullVal(cty.String),
			"triggers": cty.MapVal(map[string]cty.Value{"i": cty.StringVal(strconv.Itoa(i))})}), ty)
		if err != nil {
			return err
		}
		config := &tfplugin6.DynamicValue{Msgpack: raw}
		prior := &tfplugin6.DynamicValue{Msgpack: none}
		if _, err := p.rpc.ValidateResourceConfig(ctx, &tfplugin6.ValidateResourceConfig_Request{TypeName: "null_resource", Config: config}); err != nil {
			return err
		}
		plan, err := p.rpc.PlanResourceChange(ctx, &tfplugin6.PlanResourceChange_Request{TypeName: "null_resource",
			PriorState: prior, ProposedNewState: config, Config: config})
		if err != nil {
			return err
		}
		_, err = p.rpc.ApplyResourceChange(ctx, &tfplugin6.ApplyResourceChange_Request{TypeName: "null_resource",
			PriorState: prior, PlannedState: plan.PlannedState, PlannedPrivate: plan.PlannedPrivate, Config: config})
		return err
	}
	pid := p.client.ReattachConfig().Pid
	cpu := processCPU(b, pid)
	b.ResetTimer()
	work := make(chan int)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			for i := range work {
				if err := create(i); err != nil {
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
	b.ReportMetric(float64(processCPU(b, pid)-cpu)/float64(b.N), "provider-cpu-ns/op")
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
