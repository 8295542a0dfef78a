package tfplugin

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// closeTimeout bounds the renewal or closing of an ephemeral resource.
const closeTimeout = time.Minute

// opened is an ephemeral resource the provider opened and has not closed.
type opened struct {
	typeName string
	private  []byte
	renewal  *time.Timer        // nil when the provider asked for none
	renewing context.CancelFunc // ends the renewal in flight, if any
}

// ephemerals are the ephemeral resources a Provider opened: renewed when
// their provider asks (renew_at), and closed, last opened first, when the
// Provider is, at the end of the operation that opened them.
type ephemerals struct {
	mu     sync.Mutex
	open   []*opened
	closed bool
}

// open opens an ephemeral resource with ValidateEphemeralResourceConfig
// and OpenEphemeralResource; its result is the invoke's. It is opened
// anew in each operation: never kept, nor asked for once per command.
func (p *Provider) open(ctx context.Context, proc *process, t *typed, args resource.Map) (provider.InvokeResponse, error) {
	dv, secrets, fs, err := p.invokeConfig(t, args, "ValidateEphemeralResourceConfig", func(dv *tfplugin6.DynamicValue) ([]*tfplugin6.Diagnostic, error) {
		resp, err := proc.rpc.ValidateEphemeralResourceConfig(ctx, &tfplugin6.ValidateEphemeralResourceConfig_Request{TypeName: t.name, Config: dv})
		return resp.GetDiagnostics(), err
	})
	if err != nil || len(fs) > 0 {
		return provider.InvokeResponse{Failures: fs}, err
	}
	resp, err := proc.rpc.OpenEphemeralResource(ctx, &tfplugin6.OpenEphemeralResource_Request{TypeName: t.name, Config: dv,
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		return provider.InvokeResponse{}, p.rpcError("OpenEphemeralResource", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "opening ephemeral resource "+t.name); err != nil {
		return provider.InvokeResponse{}, err
	}
	if resp.GetDeferred() != nil {
		return provider.InvokeResponse{}, fmt.Errorf("the Terraform provider %s deferred opening ephemeral resource %s, which Cairn does not allow", p.param.Source, t.name)
	}
	e := &opened{typeName: t.name, private: resp.GetPrivate()}
	p.ephemerals.mu.Lock()
	p.ephemerals.open = append(p.ephemerals.open, e)
	if resp.RenewAt != nil {
		p.renewAt(proc, e, resp.GetRenewAt().AsTime())
	}
	p.ephemerals.mu.Unlock()
	return p.invokeResult(resp.GetResult(), t, "ephemeral resource", secrets)
}

// renewAt schedules the renewal of e at the time its provider gave;
// p.ephemerals.mu is held.
func (p *Provider) renewAt(proc *process, e *opened, at time.Time) {
	e.renewal = time.AfterFunc(time.Until(at), func() { p.renew(proc, e) })
}

// renew renews e, without the lock during the call, which closing the
// ephemeral resources ends. A renewal that fails is logged: the value
// already went where it was used.
func (p *Provider) renew(proc *process, e *opened) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	p.ephemerals.mu.Lock()
	if p.ephemerals.closed {
		p.ephemerals.mu.Unlock()
		return
	}
	e.renewal, e.renewing = nil, cancel
	private := e.private
	p.ephemerals.mu.Unlock()
	resp, err := proc.rpc.RenewEphemeralResource(ctx, &tfplugin6.RenewEphemeralResource_Request{TypeName: e.typeName, Private: private})
	if err == nil {
		err = p.diagnose(resp.GetDiagnostics(), "renewing ephemeral resource "+e.typeName)
	}
	p.ephemerals.mu.Lock()
	defer p.ephemerals.mu.Unlock()
	e.renewing = nil
	switch {
	case p.ephemerals.closed:
	case err != nil:
		p.log.Warn("renewing an ephemeral resource", "type", e.typeName, "error", err)
	default:
		e.private = resp.GetPrivate()
		if resp.RenewAt != nil {
			p.renewAt(proc, e, resp.GetRenewAt().AsTime())
		}
	}
}

// closeEphemerals closes the ephemeral resources still open, last opened
// first, ending their renewals in flight; a failure to close one is
// logged.
func (p *Provider) closeEphemerals(proc *process) {
	p.ephemerals.mu.Lock()
	p.ephemerals.closed = true
	open := p.ephemerals.open
	p.ephemerals.open = nil
	for _, e := range open {
		if e.renewal != nil {
			e.renewal.Stop()
		}
		if e.renewing != nil {
			e.renewing()
		}
	}
	p.ephemerals.mu.Unlock()
	// Once closed, nothing changes what open holds.
	for i := len(open) - 1; i >= 0; i-- {
		e := open[i]
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		resp, err := proc.rpc.CloseEphemeralResource(ctx, &tfplugin6.CloseEphemeralResource_Request{TypeName: e.typeName, Private: e.private})
		cancel()
		if err == nil {
			err = p.diagnose(resp.GetDiagnostics(), "closing ephemeral resource "+e.typeName)
		}
		if err != nil {
			p.log.Warn("closing an ephemeral resource", "type", e.typeName, "error", err)
		}
	}
}
