package tfplugin

import (
	"context"
	"maps"
	"sync"

	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// Calls counts the calls made to a started provider, by RPC.
type Calls struct {
	tfplugin6.ProviderClient
	mu sync.Mutex
	n  map[string]int
}

// CountCalls makes the started provider p serves count the calls of
// validation, upgrade and plan made to it from now on.
func CountCalls(p provider.Provider) *Calls {
	tp := p.(*Provider)
	tp.mu.Lock()
	defer tp.mu.Unlock()
	c := &Calls{ProviderClient: tp.proc.rpc, n: map[string]int{}}
	tp.proc.rpc = c
	return c
}

// Counts returns the calls counted so far.
func (c *Calls) Counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.n)
}

func (c *Calls) add(rpc string) {
	c.mu.Lock()
	c.n[rpc]++
	c.mu.Unlock()
}

func (c *Calls) ValidateResourceConfig(ctx context.Context, in *tfplugin6.ValidateResourceConfig_Request, opts ...grpc.CallOption) (*tfplugin6.ValidateResourceConfig_Response, error) {
	c.add("ValidateResourceConfig")
	return c.ProviderClient.ValidateResourceConfig(ctx, in, opts...)
}

func (c *Calls) UpgradeResourceState(ctx context.Context, in *tfplugin6.UpgradeResourceState_Request, opts ...grpc.CallOption) (*tfplugin6.UpgradeResourceState_Response, error) {
	c.add("UpgradeResourceState")
	return c.ProviderClient.UpgradeResourceState(ctx, in, opts...)
}

func (c *Calls) PlanResourceChange(ctx context.Context, in *tfplugin6.PlanResourceChange_Request, opts ...grpc.CallOption) (*tfplugin6.PlanResourceChange_Response, error) {
	c.add("PlanResourceChange")
	return c.ProviderClient.PlanResourceChange(ctx, in, opts...)
}
