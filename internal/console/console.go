package console

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Stacks is what the console reads of a backend: the methods of
// backend.Backend that change nothing. It is given no other way to a
// backend.
type Stacks interface {
	URL() string
	ListStacks(ctx context.Context, project string) ([]backend.StackSummary, error)
	Snapshot(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (*snapshot.Snapshot, error)
	History(ctx context.Context, ref backend.StackRef) ([]backend.HistoryRecord, error)
	Tags(ctx context.Context, ref backend.StackRef) (backend.Tags, error)
}

var _ Stacks = backend.Backend(nil)

// Options say what a console shows.
type Options struct {
	Stacks Stacks
	// Current is the stack the console opens on; zero opens the list of
	// stacks.
	Current backend.StackRef
	// PlanFile is a plan saved by `cairn preview --save-plan` for Current,
	// to show beside it; "" for none.
	PlanFile string
}

// Console is the console's server, on its listener.
type Console struct {
	opts  Options
	ln    net.Listener
	plan  *plan.Plan
	token string
	// cookie names the cookie that holds the token. It names the port too:
	// browsers share cookies between the ports of a host, and two consoles
	// may run at once.
	cookie string
	// hosts are the host names served (any port, for SSH tunnels) when the
	// console listens on a loopback address, so that a page of another
	// site whose name resolves to it (DNS rebinding) gets nothing; nil when
	// it listens elsewhere.
	hosts map[string]bool
}

// New makes the console that serves ln, with a new random token. It reads
// PlanFile, if any, now: a plan that cannot be read, or is for another
// stack, is an error.
func New(ln net.Listener, opts Options) (*Console, error) {
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return nil, fmt.Errorf("the console serves TCP, not %s", ln.Addr().Network())
	}
	c := &Console{opts: opts, ln: ln, token: token, cookie: fmt.Sprintf("cairn-console-%d", addr.Port)}
	if addr.IP.IsLoopback() {
		c.hosts = map[string]bool{addr.IP.String(): true, "localhost": true, "127.0.0.1": true, "::1": true}
	}
	if opts.PlanFile != "" {
		if c.plan, err = loadPlan(opts.PlanFile, nameOf(opts.Current)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// URL is the address of the console's page of the current stack (or of
// its list of stacks), with the token in its fragment. A console listening
// on every address is given as 127.0.0.1.
func (c *Console) URL() string {
	addr := c.ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, fmt.Sprint(addr.Port)), Path: "/", Fragment: "token=" + c.token}
	if ref := c.opts.Current; ref.Name != "" {
		u.Path = "/stacks/" + ref.Project + "/" + ref.Name
	}
	return u.String()
}

// Serve serves the console until ctx ends, then stops, giving the requests
// in flight a few seconds to finish.
func (c *Console) Serve(ctx context.Context) error {
	srv := &http.Server{Handler: c.handler(), ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	err := srv.Serve(c.ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-stopped
		return nil
	}
	return err
}

// handler routes the console's requests: the pages and assets to anyone,
// the API to a browser with the token.
func (c *Console) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", c.page)
	mux.HandleFunc("GET /stacks/{project}/{stack}", c.page)
	mux.HandleFunc("GET /stacks/{project}/{stack}/{view}", c.page)
	mux.HandleFunc("GET /assets/{name}", serveAsset)
	mux.HandleFunc("POST /api/session", c.session)
	mux.Handle("GET /api/stacks", c.api(c.stacks))
	mux.Handle("GET /api/stacks/{project}/{stack}", c.api(c.stack))
	mux.Handle("GET /api/stacks/{project}/{stack}/version", c.api(c.version))
	mux.Handle("GET /api/plan", c.api(c.planChanges))
	return c.guard(mux)
}
