package chromiumtest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPage renders a page whose script fills it in, reads it once rendered,
// sees the Content Security Policy violation of its inline script, and
// takes a screenshot.
func TestPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		if r.URL.Path == "/app.js" {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(`setTimeout(() => { document.body.append("rendered"); document.body.dataset.state = "ready" }, 100)`))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><body><script src="/app.js"></script><script>document.title = "inline"</script></body>`))
	}))
	defer srv.Close()
	b := Start(t)
	p := b.NewPage(t)
	p.Navigate(srv.URL)
	p.WaitFor(`document.body.dataset.state == "ready"`)
	if text := p.Text(); text != "rendered" {
		t.Errorf("page text %q, want %q", text, "rendered")
	}
	var title string
	p.Eval("document.title", &title)
	if title != "" {
		t.Errorf("the inline script ran despite the policy: title %q", title)
	}
	if !slices.ContainsFunc(p.Problems(), func(s string) bool { return strings.Contains(s, "Content Security Policy") }) {
		t.Errorf("the policy violation was not reported: %q", p.Problems())
	}
	shot := filepath.Join(t.ArtifactDir(), "page.png")
	p.Screenshot(shot)
	if data, err := os.ReadFile(shot); err != nil || !strings.HasPrefix(string(data), "\x89PNG") {
		t.Errorf("no PNG screenshot: %v", err)
	}
}
