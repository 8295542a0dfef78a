package tfplugin

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// slowProvider is a provider whose ConfigureProvider and
// RenewEphemeralResource calls wait until released, heedless of their
// context, as a provider that hangs does.
type slowProvider struct {
	tfplugin6.ProviderClient
	entered chan string   // gets the name of each call as it begins
	release chan struct{} // closed to let the calls end
	fail    bool          // ConfigureProvider reports an error

	mu     sync.Mutex
	calls  []string
	closed []string
}

func newSlowProvider() *slowProvider {
	return &slowProvider{entered: make(chan string, 16), release: make(chan struct{})}
}

func (s *slowProvider) record(call string) {
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.mu.Unlock()
	s.entered <- call
}

func (s *slowProvider) count(call string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if c == call {
			n++
		}
	}
	return n
}

func (s *slowProvider) ConfigureProvider(context.Context, *tfplugin6.ConfigureProvider_Request, ...grpc.CallOption) (*tfplugin6.ConfigureProvider_Response, error) {
	s.record("ConfigureProvider")
	<-s.release
	if s.fail {
		return &tfplugin6.ConfigureProvider_Response{Diagnostics: []*tfplugin6.Diagnostic{{Severity: tfplugin6.Diagnostic_ERROR, Summary: "no credentials"}}}, nil
	}
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

func (s *slowProvider) RenewEphemeralResource(context.Context, *tfplugin6.RenewEphemeralResource_Request, ...grpc.CallOption) (*tfplugin6.RenewEphemeralResource_Response, error) {
	s.record("RenewEphemeralResource")
	<-s.release
	return &tfplugin6.RenewEphemeralResource_Response{}, nil
}

func (s *slowProvider) CloseEphemeralResource(_ context.Context, req *tfplugin6.CloseEphemeralResource_Request, _ ...grpc.CallOption) (*tfplugin6.CloseEphemeralResource_Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = append(s.closed, req.GetTypeName())
	return &tfplugin6.CloseEphemeralResource_Response{}, nil
}

func (s *slowProvider) StopProvider(context.Context, *tfplugin6.StopProvider_Request, ...grpc.CallOption) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}

// startedProvider returns a Provider running rpc, started already, with
// configuration pending.
func startedProvider(t *testing.T, rpc tfplugin6.ProviderClient) (*Provider, *process) {
	t.Helper()
	s, err := newProviderSchema("slow", &parameter{Source: "registry.opentofu.org/cairn/slow", Version: "1.0.0"}, &tfplugin6.GetProviderSchema_Response{})
	if err != nil {
		t.Fatal(err)
	}
	closing, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	proc := &process{rpc: rpc, version: 6}
	return &Provider{param: &parameter{Source: "registry.opentofu.org/cairn/slow"}, pkg: "slow", proc: proc, schema: s,
		config: &tfplugin6.DynamicValue{Msgpack: []byte{0x80}}, configured: []byte{0x80}, log: slog.New(slog.DiscardHandler), closing: closing, stop: stop}, proc
}

// TestNoLockDuringConfigure calls the provider while its configuration is
// in flight: the calls that need no configuration proceed, a caller that
// waits for it and gives up gets its context's error, and the callers
// that wait share the one ConfigureProvider call.
func TestNoLockDuringConfigure(t *testing.T) {
	slow := newSlowProvider()
	p, _ := startedProvider(t, slow)
	first := make(chan error, 2)
	go func() {
		_, _, err := p.ready(context.Background())
		first <- err
	}()
	<-slow.entered // ConfigureProvider is in flight

	if p.Pkg() != "slow" || p.configuration() == nil {
		t.Errorf("Pkg and configuration answered %q, %v", p.Pkg(), p.configuration())
	}
	if err := p.SignalCancellation(context.Background()); err != nil {
		t.Errorf("SignalCancellation: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.ready(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("a caller that gave up got %v, want its context's error", err)
	}
	go func() {
		_, _, err := p.ready(context.Background())
		first <- err
	}()
	close(slow.release)
	for range 2 {
		if err := <-first; err != nil {
			t.Fatalf("ready: %v", err)
		}
	}
	if n := slow.count("ConfigureProvider"); n != 1 {
		t.Errorf("ConfigureProvider was called %d times, want once", n)
	}
}

// TestConfigureFailureNotKept reports a failed configuration to the
// caller, and configures the provider again for the next.
func TestConfigureFailureNotKept(t *testing.T) {
	slow := newSlowProvider()
	close(slow.release)
	slow.fail = true
	p, _ := startedProvider(t, slow)
	if _, _, err := p.ready(context.Background()); err == nil {
		t.Fatal("a configuration the provider refused was taken")
	}
	slow.fail = false
	if _, _, err := p.ready(context.Background()); err != nil {
		t.Fatalf("configuring again: %v", err)
	}
	if n := slow.count("ConfigureProvider"); n != 2 {
		t.Errorf("ConfigureProvider was called %d times, want twice", n)
	}
}

// TestCloseDuringRenewal closes the ephemeral resources while the renewal
// of one is in flight, and never answered: closing does not wait for it.
func TestCloseDuringRenewal(t *testing.T) {
	slow := newSlowProvider()
	t.Cleanup(func() { close(slow.release) })
	p, proc := startedProvider(t, slow)
	e := &opened{typeName: "slow_token", private: []byte("p")}
	p.ephemerals.mu.Lock()
	p.ephemerals.open = append(p.ephemerals.open, e)
	p.renewAt(proc, e, time.Now())
	p.ephemerals.mu.Unlock()
	<-slow.entered // RenewEphemeralResource is in flight
	p.closeEphemerals(proc)
	slow.mu.Lock()
	defer slow.mu.Unlock()
	if len(slow.closed) != 1 || slow.closed[0] != "slow_token" {
		t.Errorf("closed %q, want slow_token", slow.closed)
	}
}
