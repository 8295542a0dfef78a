// Package lsptest speaks the Language Server Protocol to a server the way
// an editor does, for tests: requests and their answers, notifications,
// and the diagnostics and messages the server publishes.
//
//	c := lsptest.Start(t, lsp.Options{Schemas: host.NewCachedSchemas(host.CachedSchemasOptions{Builtins: builtins})})
//	c.Initialize(dir)
//	c.Open(path, text)
//	diags := c.Diagnostics(path, func(ds []lsp.Diagnostic) bool { return len(ds) > 0 })
//	c.Shutdown()
package lsptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/lsp"
)

// Timeout bounds each wait for the server: a server that does not answer
// fails the test rather than hang it.
var Timeout = time.Minute

// Client is an editor's end of a connection.
type Client struct {
	t  testing.TB
	w  io.Writer
	mu sync.Mutex
	id int
	// waiting holds the requests awaiting an answer, by ID.
	waiting map[int]chan message
	// diags holds the diagnostics last published, by URI; messages what
	// the server showed. changed is closed and replaced on each.
	diags    map[string]lsp.PublishDiagnosticsParams
	messages []string
	changed  chan struct{}
	done     chan struct{} // closed when the server's output ends
	// Exited receives what Serve returned, for a server started in
	// process.
	Exited chan error
}

type message struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Start runs a server in process, over pipes, until the test ends.
func Start(t testing.TB, opts lsp.Options) *Client {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := New(t, outR, inW)
	go func() {
		err := lsp.Serve(ctx, inR, outW, opts)
		outW.Close()
		c.Exited <- err
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
	})
	return c
}

// New is a client of a server that reads what w receives and writes what r
// gives.
func New(t testing.TB, r io.Reader, w io.Writer) *Client {
	c := &Client{t: t, w: w, waiting: map[int]chan message{}, diags: map[string]lsp.PublishDiagnosticsParams{},
		changed: make(chan struct{}), done: make(chan struct{}), Exited: make(chan error, 1)}
	go c.read(r)
	return c
}

// read dispatches what the server sends.
func (c *Client) read(r io.Reader) {
	defer close(c.done)
	tr := textproto.NewReader(bufio.NewReader(r))
	for {
		header, err := tr.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			c.t.Errorf("the server sent a header without Content-Length: %v", header)
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(tr.R, body); err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("the server sent a message that is not JSON: %s", body)
			return
		}
		c.mu.Lock()
		switch m.Method {
		case "":
			if m.ID != nil && c.waiting[*m.ID] != nil {
				c.waiting[*m.ID] <- m
				delete(c.waiting, *m.ID)
			}
		case "textDocument/publishDiagnostics":
			var p lsp.PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err == nil {
				c.diags[p.URI] = p
			}
		case "window/showMessage":
			var p struct{ Message string }
			if err := json.Unmarshal(m.Params, &p); err == nil {
				c.messages = append(c.messages, p.Message)
			}
		}
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
	}
}

// Call sends a request and decodes its result into result (which may be
// nil); it returns the error the server answered with.
func (c *Client) Call(method string, params, result any) error {
	c.t.Helper()
	c.mu.Lock()
	c.id++
	id := c.id
	ch := make(chan message, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				c.t.Fatalf("%s: cannot decode the result %s: %v", method, m.Result, err)
			}
		}
		return nil
	case <-c.done:
		c.t.Fatalf("%s: the server closed the connection", method)
	case <-time.After(Timeout):
		c.t.Fatalf("%s: no answer in %s", method, Timeout)
	}
	return nil
}

// MustCall is Call for requests that must succeed.
func (c *Client) MustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.Call(method, params, result); err != nil {
		c.t.Fatal(err)
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *Client) send(v any) {
	c.t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.Send(string(body))
}

// Send sends body as a message, whatever it holds.
func (c *Client) Send(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// Initialize opens a session on the folder dir.
func (c *Client) Initialize(dir string) {
	c.t.Helper()
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	c.MustCall("initialize", map[string]any{"processId": nil, "rootUri": URI(dir), "capabilities": map[string]any{}}, &res)
	if res.Capabilities["textDocumentSync"] == nil {
		c.t.Fatalf("initialize: no textDocumentSync in %v", res.Capabilities)
	}
	c.Notify("initialized", map[string]any{})
}

// Open opens the document at path with text, as version 1.
func (c *Client) Open(path, text string) {
	c.t.Helper()
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": URI(path), "languageId": "", "version": 1, "text": text}})
}

// Change replaces the whole text of the document at path, as version.
func (c *Client) Change(path string, version int, text string) {
	c.t.Helper()
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": URI(path), "version": version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

// Edit replaces a range of the document at path, as version.
func (c *Client) Edit(path string, version int, rng lsp.Range, text string) {
	c.t.Helper()
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": URI(path), "version": version},
		"contentChanges": []map[string]any{{"range": rng, "text": text}},
	})
}

// Diagnostics waits for the diagnostics of the document at path to
// satisfy ok, and returns them.
func (c *Client) Diagnostics(path string, ok func([]lsp.Diagnostic) bool) []lsp.Diagnostic {
	c.t.Helper()
	return c.published(path, "as expected", func(p lsp.PublishDiagnosticsParams) bool { return ok(p.Diagnostics) })
}

// Version waits for the diagnostics of version of the document at path,
// and returns them.
func (c *Client) Version(path string, version int) []lsp.Diagnostic {
	c.t.Helper()
	return c.published(path, fmt.Sprintf("of version %d", version), func(p lsp.PublishDiagnosticsParams) bool {
		return p.Version != nil && *p.Version >= version
	})
}

// published waits for diagnostics of the document at path that satisfy
// ok (what says which, for the failure), and returns them.
func (c *Client) published(path, what string, ok func(lsp.PublishDiagnosticsParams) bool) []lsp.Diagnostic {
	c.t.Helper()
	uri := URI(path)
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		p, published := c.diags[uri]
		changed := c.changed
		c.mu.Unlock()
		if published && ok(p) {
			return p.Diagnostics
		}
		select {
		case <-changed:
		case <-c.done:
			c.t.Fatalf("the server closed the connection while %s waited for diagnostics", path)
		case <-deadline:
			c.t.Fatalf("no diagnostics of %s %s in %s; the last were %+v", path, what, Timeout, p.Diagnostics)
		}
	}
}

// Message waits for a message shown to the user that contains s.
func (c *Client) Message(s string) string {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		msgs, changed := c.messages, c.changed
		c.mu.Unlock()
		for _, m := range msgs {
			if strings.Contains(m, s) {
				return m
			}
		}
		select {
		case <-changed:
		case <-c.done:
			c.t.Fatalf("the server closed the connection while waiting for a message with %q", s)
		case <-deadline:
			c.t.Fatalf("no message with %q in %s; messages: %q", s, Timeout, msgs)
		}
	}
}

// Published returns the URIs of the documents that diagnostics were
// published for.
func (c *Client) Published() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for uri := range c.diags {
		out = append(out, uri)
	}
	return out
}

// Messages returns the messages shown to the user so far.
func (c *Client) Messages() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.messages...)
}

// Shutdown ends the session as an editor does: shutdown, then exit.
func (c *Client) Shutdown() {
	c.t.Helper()
	c.MustCall("shutdown", nil, nil)
	c.Notify("exit", nil)
}

// Position returns the position of the first occurrence of mark in text,
// plus offset bytes (ASCII text only).
func Position(text, mark string, offset int) lsp.Position {
	i := strings.Index(text, mark)
	if i < 0 {
		panic(fmt.Sprintf("%q is not in the text", mark))
	}
	i += offset
	line := strings.Count(text[:i], "\n")
	return lsp.Position{Line: line, Character: i - (strings.LastIndex(text[:i], "\n") + 1)}
}

// URI returns the file: URI of a path.
func URI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// At is the parameters of a request at a position of a document.
func At(path string, pos lsp.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": URI(path)}, "position": pos}
}
