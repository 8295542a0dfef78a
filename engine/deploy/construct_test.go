package deploy

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// monitors serves monitors in process: an address names the monitor of a
// deployment.
type monitors struct {
	mu      sync.Mutex
	byAddr  map[string]Monitor
	started int
	stopped int
}

func (m *monitors) serve(mon Monitor) (string, func(), error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.started++
	addr := fmt.Sprintf("monitor-%d", m.started)
	m.byAddr[addr] = mon
	return addr, func() {
		m.mu.Lock()
		m.stopped++
		m.mu.Unlock()
	}, nil
}

func (m *monitors) get(addr string) Monitor {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byAddr[addr]
}

// pairComponent constructs pkgA:index:Pair as a component provider would:
// it registers the component and a custom child on the monitor it is given.
func pairComponent(mons *monitors, got *[]provider.ConstructRequest, mu *sync.Mutex) func(context.Context, provider.ConstructRequest) (provider.ConstructResponse, error) {
	return func(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
		mu.Lock()
		*got = append(*got, req)
		mu.Unlock()
		mon := mons.get(req.MonitorAddress)
		comp, err := mon.RegisterResource(ctx, RegisterRequest{Type: req.Type, Name: req.Name, Parent: req.Parent})
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		child, err := mon.RegisterResource(ctx, RegisterRequest{Type: "pkgA:index:Thing", Name: req.Name + "-child", Custom: true,
			Parent: comp.URN, Properties: req.Inputs, Providers: req.Providers})
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		outs := resource.Map{"childID": resource.String(string(child.ID))}
		return provider.ConstructResponse{URN: comp.URN, Outputs: outs}, mon.RegisterResourceOutputs(ctx, comp.URN, outs)
	}
}

func TestRemoteComponentIsConstructed(t *testing.T) {
	h := newHarness(t)
	h.config = map[string]resource.Value{"proj:greeting": resource.String("hi"), "pkgA:token": resource.MakeSecret(resource.String("t"))}
	mons := &monitors{byAddr: map[string]Monitor{}}
	var mu sync.Mutex
	var reqs []provider.ConstructRequest
	h.provider("pkgA", func(p *fakeProvider) { p.ConstructF = pairComponent(mons, &reqs, &mu) })
	pair := func(name string) RegisterRequest {
		return RegisterRequest{Type: "pkgA:index:Pair", Name: name, Remote: true, Properties: resource.MapFromGo(map[string]any{"x": 1})}
	}
	var outs map[string]*RegisterResponse
	prog := func(ctx context.Context, info RunInfo) error {
		var err error
		outs, err = register(ctx, info, pair("p1"), pair("p2"))
		return err
	}
	// One worker: Construct must not hold it while its children need it.
	h.mustUp(prog, func(o *Options) { o.ServeMonitor, o.Parallel = mons.serve, 1 })

	for _, name := range []string{"p1", "p2"} {
		comp, child := h.find(name), h.find(name+"-child")
		if comp == nil || child == nil || comp.Custom || child.Parent != comp.URN {
			t.Fatalf("%s and its child are not in the state as component and child:\n%s", name, dump(h.snap))
		}
		if got := outs[name]; got.URN != comp.URN || !got.Outputs["childID"].Equal(resource.String(string(child.ID))) {
			t.Errorf("%s registered as %+v", name, got)
		}
	}
	equal(t, "monitors started, stopped", []int{mons.started, mons.stopped}, []int{1, 1})
	equal(t, "creates", h.log.filter("Create"), []string{"Create p1-child", "Create p2-child"})
	r := reqs[0]
	if r.Parent != h.rootURN(RunInfo{Project: "proj", Stack: "dev"}) || r.MonitorAddress != "monitor-1" || r.Config["proj:greeting"] != "hi" ||
		strings.Join(r.ConfigSecretKeys, ",") != "pkgA:token" || !r.Inputs["x"].Equal(resource.Number(1)) {
		t.Errorf("construct request = %+v", r)
	}

	// Without a monitor to serve, a remote component is an error.
	_, err := h.up(program(pair("p1")))
	if err == nil || !strings.Contains(err.Error(), "ServeMonitor") {
		t.Errorf("remote component without a monitor: %v", err)
	}
}

func TestCallGetsMonitorAndConfig(t *testing.T) {
	h := newHarness(t)
	h.config = map[string]resource.Value{"proj:greeting": resource.String("hi")}
	mons := &monitors{byAddr: map[string]Monitor{}}
	var got provider.CallRequest
	h.provider("pkgA", func(p *fakeProvider) {
		p.CallF = func(req provider.CallRequest) (provider.CallResponse, error) {
			got = req
			return provider.CallResponse{Return: resource.Map{"r": resource.Number(1)}}, nil
		}
	})
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		if _, err := stack(ctx, info); err != nil {
			return err
		}
		_, err := info.Monitor.Call(ctx, CallRequest{Token: "pkgA:index:Pair/method"})
		return err
	}, func(o *Options) { o.ServeMonitor = mons.serve })
	if got.MonitorAddress != "monitor-1" || got.Config["proj:greeting"] != "hi" || got.Project != "proj" {
		t.Errorf("call request = %+v", got)
	}
	equal(t, "monitors stopped", mons.stopped, 1)
}
