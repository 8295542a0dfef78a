package lsp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// panicLog counts the errors logged, which the server logs for the
// panics it recovers from.
type panicLog struct{ n atomic.Int32 }

func (l *panicLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *panicLog) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		l.n.Add(1)
	}
	return nil
}
func (l *panicLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *panicLog) WithGroup(string) slog.Handler      { return l }

// FuzzHandlers opens any text as a YAML or HCL document and asks every
// request of it at a position: no handler and no check may panic.
func FuzzHandlers(f *testing.F) {
	for _, seed := range []string{
		"name: x\nruntime: yaml\nresources:\n  s:\n    type: random:RandomString\n    properties:\n      length: 8\noutputs:\n  o: ${s.result}\n",
		"resources:\n  s:\n    type: random:index/randomStr\n    properties:\n      len\n      keepers: {a: ${s.",
		"variables:\n  - ${\n  x: [${a.b[0].c}, fn::join: [\"\", []]]\n",
		"resource \"random_string\" \"s\" {\n  length = 8\n}\noutput \"o\" { value = random_string.s.result }\n",
		"resource \"random_str\n  len\nmodule \"m\" { source = \"./m\" }\nlocals { a = \"${random_string.s.\" ",
		"data \"random_x\" \"y\" {\n  lifecycle {\n    ignore_changes = [\n",
	} {
		for _, name := range []string{"x.yaml", "x.hcl"} {
			f.Add(name == "x.hcl", seed, uint(len(seed)/2))
		}
	}
	f.Fuzz(func(t *testing.T, isHCL bool, src string, at uint) {
		log := &panicLog{}
		s := newServer(context.Background(), newConn(strings.NewReader(""), io.Discard),
			Options{Schemas: host.NewCachedSchemas(host.CachedSchemasOptions{Builtins: provider.Factories{random.Factory()}}), Log: slog.New(log)})
		defer s.close()
		s.initialized = true
		path := "/cairn-fuzz/x.yaml"
		if isHCL {
			path = "/cairn-fuzz/x.hcl"
		}
		uri := uriOf(path)
		if err := s.ws.open(textDocumentItem{URI: uri, Version: 1, Text: src}); err != nil {
			t.Fatal(err)
		}
		d, _ := s.ws.documentOf(uri)
		pos := d.text.position(int(at % uint(len(src)+1)))
		doc := map[string]any{"uri": uri}
		at0 := map[string]any{"textDocument": doc, "position": pos}
		for method, params := range map[string]any{
			"textDocument/completion":     at0,
			"textDocument/hover":          at0,
			"textDocument/definition":     at0,
			"textDocument/documentSymbol": map[string]any{"textDocument": doc},
			"textDocument/formatting":     map[string]any{"textDocument": doc},
			"textDocument/codeAction": map[string]any{"textDocument": doc, "range": Range{Start: pos, End: pos},
				"context": map[string]any{"diagnostics": []Diagnostic{{Range: Range{Start: Position{}, End: pos},
					Message: `Did you mean "length"?`}}}},
		} {
			raw, _ := json.Marshal(params)
			if _, err := s.handle(context.Background(), method, raw); err != nil && err.Code == codeInternalError {
				t.Fatalf("%s: %v", method, err)
			}
		}
		if n := log.n.Load(); n > 0 {
			t.Fatalf("%d internal errors while checking", n)
		}
	})
}
