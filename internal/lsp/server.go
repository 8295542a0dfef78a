package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/plugins/host"
)

// Options configure a server.
type Options struct {
	// Schemas reads the schemas of packages: the built-in providers' and
	// those Cairn's schema cache keeps. The server never installs or
	// starts a plugin. Nil gives no schemas.
	Schemas *host.CachedSchemas
	// Delay is how long a check waits for further edits; zero means 50 ms.
	Delay time.Duration
	// Log receives what the server logs; it must not write to the
	// protocol's output. Nil discards it.
	Log *slog.Logger
	// Version is Cairn's version, told to the client.
	Version string
}

// ErrNoShutdown is returned by Serve when the client exits without asking
// the server to shut down first (the protocol's exit code 1).
var ErrNoShutdown = errors.New("the client exited without a shutdown request")

// Serve speaks the protocol on in and out until the client exits: nil after
// a shutdown request, ErrNoShutdown when the client exits or closes the
// input without one, or the error that broke the connection.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s := newServer(ctx, newConn(in, out), opts)
	defer s.close()
	return s.loop()
}

// server is a language server for Cairn's YAML and HCL programs.
type server struct {
	opts Options
	ctx  context.Context
	stop context.CancelFunc
	conn *conn
	log  *slog.Logger
	ws   *workspace

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	requests    map[string]context.CancelFunc // the requests under way, by ID
	handlers    sync.WaitGroup
}

func newServer(ctx context.Context, c *conn, opts Options) *server {
	if opts.Schemas == nil {
		opts.Schemas = host.NewCachedSchemas(host.CachedSchemasOptions{})
	}
	if opts.Delay <= 0 {
		opts.Delay = 50 * time.Millisecond
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, stop := context.WithCancel(ctx)
	s := &server{opts: opts, ctx: ctx, stop: stop, conn: c, log: log, requests: map[string]context.CancelFunc{}}
	s.ws = newWorkspace(s)
	return s
}

// close stops the checks under way.
func (s *server) close() {
	s.stop()
	s.handlers.Wait()
	s.ws.close()
}

// loop reads messages and handles them: notifications in order, requests
// each on a goroutine of its own, so that a slow one delays no other.
func (s *server) loop() error {
	for {
		m, err := s.conn.read()
		var rerr *rpcError
		switch {
		case errors.As(err, &rerr):
			_ = s.conn.reply(nil, nil, rerr)
			continue
		case errors.Is(err, io.EOF):
			return s.exit()
		case err != nil:
			return err
		}
		switch {
		case m.Method == "exit":
			return s.exit()
		case m.isRequest():
			s.request(m)
		case m.Method != "":
			s.notification(m)
		}
	}
}

func (s *server) exit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// request answers a request, on a goroutine of its own once the server is
// initialized.
func (s *server) request(m *message) {
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize":
		result, err := s.initialize(m.Params)
		_ = s.conn.reply(m.ID, result, err)
		return
	case !initialized:
		_ = s.conn.reply(m.ID, nil, errorf(codeServerNotInitialized, "the server is not initialized: send initialize first"))
		return
	case m.Method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		_ = s.conn.reply(m.ID, nil, nil)
		return
	case shutdown:
		_ = s.conn.reply(m.ID, nil, errorf(codeInvalidRequest, "the server is shutting down"))
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	id := string(m.ID)
	s.mu.Lock()
	s.requests[id] = cancel
	s.mu.Unlock()
	s.handlers.Add(1)
	go func() {
		defer s.handlers.Done()
		result, err := s.safely(ctx, m.Method, m.Params)
		s.mu.Lock()
		delete(s.requests, id)
		s.mu.Unlock()
		if ctx.Err() != nil && s.ctx.Err() == nil {
			result, err = nil, errorf(codeRequestCancelled, "the request was cancelled")
		}
		cancel()
		_ = s.conn.reply(m.ID, result, err)
	}()
}

// safely handles a request, turning a panic into an internal error: a
// half-written document must never bring the server down.
func (s *server) safely(ctx context.Context, method string, params json.RawMessage) (result any, err *rpcError) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("internal error", "method", method, "panic", p, "stack", string(debug.Stack()))
			result, err = nil, errorf(codeInternalError, "internal error in %s: %v", method, p)
		}
	}()
	return s.handle(ctx, method, params)
}

// handle answers a request.
func (s *server) handle(ctx context.Context, method string, params json.RawMessage) (any, *rpcError) {
	switch method {
	case "textDocument/completion":
		return call(ctx, params, s.completion)
	case "textDocument/hover":
		return call(ctx, params, s.hover)
	case "textDocument/definition":
		return call(ctx, params, s.definition)
	case "textDocument/documentSymbol":
		return call(ctx, params, s.documentSymbol)
	case "textDocument/formatting":
		return call(ctx, params, s.formatting)
	case "textDocument/codeAction":
		return call(ctx, params, s.codeAction)
	}
	return nil, errorf(codeMethodNotFound, "%s is not a method of this server", method)
}

// call decodes a request's parameters and calls its handler.
func call[P, R any](ctx context.Context, raw json.RawMessage, f func(context.Context, *P) (R, error)) (any, *rpcError) {
	var p P
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errorf(codeInvalidParams, "invalid parameters: %v", err)
	}
	r, err := f(ctx, &p)
	if err != nil {
		var rerr *rpcError
		if errors.As(err, &rerr) {
			return nil, rerr
		}
		return nil, errorf(codeInternalError, "%v", err)
	}
	return r, nil
}

// notification handles a notification, in the order they came.
func (s *server) notification(m *message) {
	s.mu.Lock()
	initialized := s.initialized
	s.mu.Unlock()
	if !initialized {
		return // dropped, as the protocol asks
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("internal error", "method", m.Method, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	var err error
	switch m.Method {
	case "textDocument/didOpen":
		var p didOpenParams
		if err = json.Unmarshal(m.Params, &p); err == nil {
			err = s.ws.open(p.TextDocument)
		}
	case "textDocument/didChange":
		var p didChangeParams
		if err = json.Unmarshal(m.Params, &p); err == nil {
			err = s.ws.change(p)
		}
	case "textDocument/didClose":
		var p didCloseParams
		if err = json.Unmarshal(m.Params, &p); err == nil {
			err = s.ws.closeDocument(p.TextDocument.URI)
		}
	case "textDocument/didSave":
		var p didSaveParams
		if err = json.Unmarshal(m.Params, &p); err == nil {
			err = s.ws.saved(p.TextDocument.URI)
		}
	case "workspace/didChangeWatchedFiles":
		var p didChangeWatchedFilesParams
		if err = json.Unmarshal(m.Params, &p); err == nil {
			for _, c := range p.Changes {
				_ = s.ws.saved(c.URI)
			}
		}
	case "$/cancelRequest":
		var p cancelParams
		if err = json.Unmarshal(m.Params, &p); err == nil {
			id, _ := json.Marshal(p.ID)
			s.mu.Lock()
			if cancel := s.requests[string(id)]; cancel != nil {
				cancel()
			}
			s.mu.Unlock()
		}
	}
	if err != nil {
		s.log.Warn("ignored a notification", "method", m.Method, "error", err)
	}
}

// initialize answers the client's first request with what the server can
// do.
func (s *server) initialize(raw json.RawMessage) (any, *rpcError) {
	var p initializeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errorf(codeInvalidParams, "invalid initialize parameters: %v", err)
	}
	s.mu.Lock()
	again := s.initialized
	s.initialized = true
	s.mu.Unlock()
	if again {
		return nil, errorf(codeInvalidRequest, "the server is initialized already")
	}
	s.ws.prefetch()
	return initializeResult{
		ServerInfo: serverInfo{Name: "cairn", Version: s.opts.Version},
		Capabilities: serverCapabilities{
			PositionEncoding:           "utf-16",
			TextDocumentSync:           textDocumentSync{OpenClose: true, Change: 2, Save: saveOptions{}},
			CompletionProvider:         completionOptions{TriggerCharacters: []string{".", ":", "/", "{", "\"", "_"}},
			HoverProvider:              true,
			DefinitionProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
			CodeActionProvider:         codeActionOptions{CodeActionKinds: []string{"quickfix"}},
		},
	}, nil
}
