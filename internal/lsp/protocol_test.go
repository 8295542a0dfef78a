package lsp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
)

// TestProtocolErrors checks the answers to what an editor should not send:
// requests before initialize or after shutdown, unknown methods, documents
// that are not open, and messages that are not JSON, after which the
// server goes on.
func TestProtocolErrors(t *testing.T) {
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	c := lsptest.Start(t, options())
	hover := lsptest.At(dir+"/Pulumi.yaml", lsp.Position{})
	wantError := func(err error, code string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "error "+code) {
			t.Errorf("got %v, want error %s", err, code)
		}
	}
	wantError(c.Call("textDocument/hover", hover, nil), "-32002")
	c.Initialize(dir)
	wantError(c.Call("initialize", map[string]any{}, nil), "-32600")
	wantError(c.Call("textDocument/hover", hover, nil), "-32602")
	wantError(c.Call("textDocument/rename", hover, nil), "-32601")
	c.Send(`{"jsonrpc": "2.0", "id": 7, "method":`)
	c.Open(dir+"/Pulumi.yaml", yamlProgram)
	var h lsp.Hover
	c.MustCall("textDocument/hover", lsptest.At(dir+"/Pulumi.yaml", lsptest.Position(yamlProgram, "length", 0)), &h)
	if !strings.Contains(h.Contents.Value, "length") {
		t.Errorf("hover after a broken message: %q", h.Contents.Value)
	}
	c.MustCall("shutdown", nil, nil)
	wantError(c.Call("textDocument/hover", hover, nil), "-32600")
	c.Notify("exit", nil)
	if err := <-c.Exited; err != nil {
		t.Errorf("Serve after shutdown and exit: %v", err)
	}
}

// TestExitWithoutShutdown checks that a client that exits without a
// shutdown request makes Serve fail, as the protocol's exit code 1.
func TestExitWithoutShutdown(t *testing.T) {
	c := lsptest.Start(t, options())
	c.Initialize(t.TempDir())
	c.Notify("exit", nil)
	if err := <-c.Exited; !errors.Is(err, lsp.ErrNoShutdown) {
		t.Errorf("Serve after exit without shutdown: %v", err)
	}
}
