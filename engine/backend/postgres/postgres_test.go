package postgres_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/postgres"
	"github.com/cairn-iac/cairn/internal/pgtest"
)

var ref = backend.StackRef{Project: "proj", Name: "dev"}

// open opens a backend on a new database of srv, with one stack, and
// collects its warnings.
func open(t *testing.T, srv *pgtest.Server, opts postgres.Options) (*postgres.Backend, *[]string) {
	t.Helper()
	var mu sync.Mutex
	warnings := &[]string{}
	opts.Warn = func(msg string) {
		mu.Lock()
		*warnings = append(*warnings, msg)
		mu.Unlock()
	}
	b, err := postgres.Open(context.Background(), srv.Database(t, t.Name()), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := b.CreateStack(context.Background(), ref, nil, nil); err != nil && !errors.Is(err, backend.ErrStackExists) {
		t.Fatal(err)
	}
	return b, warnings
}

// A server that accepts connections and never answers is an error naming
// the URL, password masked, once the connect timeout has passed: never a
// hang.
func TestSilentServerIsAnErrorNamingTheURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // say nothing
		}
	}()
	url := "postgres://cairn:hunter2@" + l.Addr().String() + "/db?connect_timeout=1"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang fails the test, not CI
	defer cancel()
	_, err = postgres.Open(ctx, url, postgres.Options{})
	if err == nil {
		t.Fatal("Open of a silent server succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, "postgres://cairn:xxxxx@"+l.Addr().String()+"/db") || strings.Contains(msg, "hunter2") {
		t.Errorf("error %q does not name the URL with its password masked", msg)
	}
	if !strings.Contains(msg, "did not answer in time") {
		t.Errorf("error %q does not say the database did not answer", msg)
	}
}

// Of many processes taking a stack's lock at once, exactly one gets it; the
// others are told who holds it.
func TestOneLockHolderAtOnce(t *testing.T) {
	srv := pgtest.New(t)
	b, _ := open(t, srv, postgres.Options{})
	const n = 8
	var wg sync.WaitGroup
	locks, errs := make([]backend.Lock, n), make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			locks[i], errs[i] = b.Lock(context.Background(), ref)
		}()
	}
	wg.Wait()
	held := 0
	for i := range n {
		var locked *backend.LockedError
		switch {
		case errs[i] == nil:
			held++
			defer locks[i].Release()
		case errors.As(errs[i], &locked):
			if locked.Holder.Pid == 0 {
				t.Errorf("the lock error names no holder: %v", errs[i])
			}
		default:
			t.Errorf("Lock: %v", errs[i])
		}
	}
	if held != 1 {
		t.Errorf("%d processes hold the lock, want 1", held)
	}
}

// A lock released is free at once: a Lock that follows in the same
// process (as `cairn stack rm` purging what it kept does) gets it.
func TestLockFreeOnceReleased(t *testing.T) {
	b, _ := open(t, pgtest.New(t), postgres.Options{})
	for i := range 20 {
		lock, err := b.Lock(context.Background(), ref)
		if err != nil {
			t.Fatalf("Lock %d right after a Release: %v", i, err)
		}
		if err := lock.Release(); err != nil {
			t.Fatal(err)
		}
	}
}

// When the holder's connection dies (the database terminates its session,
// as when its process dies or its network goes), the lock is free at once,
// and the old holder can write nothing more.
func TestLockDiesWithItsConnection(t *testing.T) {
	srv := pgtest.New(t)
	b, warnings := open(t, srv, postgres.Options{Hostname: "first-host"})
	// The test plays both holders, on connections of their own.
	ctx := context.Background()
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(ctx, ref); err == nil || !strings.Contains(err.Error(), "first-host") {
		t.Fatalf("second Lock = %v, want a lock error naming first-host", err)
	}
	url := strings.Replace(b.URL(), "xxxxx", pgtest.Password, 1)
	if err := pgtest.Exec(ctx, url, `SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	second, err := b.Lock(ctx, ref)
	if err != nil {
		t.Fatalf("Lock after the holder's connection died: %v", err)
	}
	defer second.Release()
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "broke the lock of stack proj/dev held by pid") {
		t.Errorf("warnings %q, want one about the stale lock", *warnings)
	}
	if _, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate}); err == nil {
		t.Error("the old holder began an operation after losing its connection")
	}
	if err := lock.Release(); err != nil {
		t.Errorf("Release of a lock whose connection died: %v", err)
	}
	if _, err := b.Lock(ctx, ref); err == nil {
		t.Error("the old holder's Release freed the new holder's lock")
	}
}

// A database that stops answering in the middle of an operation (its
// connections open, nothing coming back) makes each call an error naming
// the URL once the backend's timeout has passed, never a hang.
func TestHungDatabaseIsAnErrorNotAHang(t *testing.T) {
	srv := pgtest.New(t)
	u, err := url.Parse(srv.Database(t, t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newFreezingProxy(t, u.Host)
	u.Host = proxy.addr
	ctx := context.Background()
	b, err := postgres.Open(ctx, u.String(), postgres.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Not closed: closing a connection waits for the server to say goodbye.
	if err := b.CreateStack(ctx, ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate})
	if err != nil {
		t.Fatal(err)
	}
	proxy.freeze()
	for name, call := range map[string]func() error{
		"Snapshot": func() error { _, err := b.Snapshot(ctx, ref, nil); return err },
		"Finish":   func() error { return op.Finish(ctx, op.Base(), backend.Summary{}) },
	} {
		done := make(chan error, 1)
		start := time.Now()
		go func() { done <- call() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "postgres://cairn:xxxxx@"+proxy.addr) || strings.Contains(err.Error(), pgtest.Password) {
				t.Errorf("%s on a hung database = %v; want an error naming the URL with its password masked", name, err)
			}
			t.Logf("%s failed after %s: %v", name, time.Since(start).Round(time.Millisecond), err)
		case <-time.After(time.Minute):
			t.Fatalf("%s on a hung database hangs", name)
		}
	}
	lock.Release()
}

// freezingProxy forwards TCP connections to a server until frozen; then
// it keeps them open and forwards nothing more.
type freezingProxy struct {
	addr   string
	mu     sync.Mutex
	frozen bool
}

func newFreezingProxy(t *testing.T, target string) *freezingProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	p := &freezingProxy{addr: l.Addr().String()}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			t.Cleanup(func() { c.Close(); s.Close() })
			go p.pipe(c, s)
			go p.pipe(s, c)
		}
	}()
	return p
}

func (p *freezingProxy) freeze() {
	p.mu.Lock()
	p.frozen = true
	p.mu.Unlock()
}

func (p *freezingProxy) pipe(from, to net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if err != nil {
			return
		}
		p.mu.Lock()
		frozen := p.frozen
		p.mu.Unlock()
		if !frozen {
			to.Write(buf[:n])
		}
	}
}
