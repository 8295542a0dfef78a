package chromiumtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// Viewport is the size, in CSS pixels, of every page's window.
var Viewport = struct{ Width, Height int }{1280, 900}

// Page is one tab, in a browser context of its own: it shares no cookies
// or storage with the browser's other pages.
type Page struct {
	t       testing.TB
	b       *Browser
	session string

	mu       sync.Mutex
	problems []string
}

// NewPage opens a blank page in a new browser context.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	var ctx struct {
		BrowserContextID string `json:"browserContextId"`
	}
	var target struct {
		TargetID string `json:"targetId"`
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	p := &Page{t: t, b: b}
	must(t, b.call("", "Target.createBrowserContext", map[string]any{}, &ctx))
	must(t, b.call("", "Target.createTarget", map[string]any{"url": "about:blank", "browserContextId": ctx.BrowserContextID}, &target))
	must(t, b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached))
	p.session = attached.SessionID
	b.mu.Lock()
	b.pages[p.session] = p
	b.mu.Unlock()
	for _, domain := range []string{"Page", "Runtime", "Log"} {
		p.call(domain+".enable", map[string]any{}, nil)
	}
	p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": Viewport.Width, "height": Viewport.Height,
		"deviceScaleFactor": 1, "mobile": false}, nil)
	return p
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (p *Page) call(method string, params, result any) {
	p.t.Helper()
	must(p.t, p.b.call(p.session, method, params, result))
}

// event records what the page reports going wrong: uncaught exceptions,
// console errors, and the browser's own errors (failed loads, Content
// Security Policy violations).
func (p *Page) event(method string, params json.RawMessage) {
	var e struct {
		Type             string                `json:"type"`
		Args             []struct{ Value any } `json:"args"`
		ExceptionDetails struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
		Entry struct {
			Level string `json:"level"`
			Text  string `json:"text"`
			URL   string `json:"url"`
		} `json:"entry"`
	}
	if json.Unmarshal(params, &e) != nil {
		return
	}
	var problem string
	switch {
	case method == "Runtime.exceptionThrown":
		problem = "exception: " + e.ExceptionDetails.Text + " " + e.ExceptionDetails.Exception.Description
	case method == "Runtime.consoleAPICalled" && e.Type == "error":
		problem = "console.error:"
		for _, a := range e.Args {
			problem += fmt.Sprintf(" %v", a.Value)
		}
	case method == "Log.entryAdded" && e.Entry.Level == "error":
		problem = strings.TrimSpace(e.Entry.Text + " " + e.Entry.URL)
	default:
		return
	}
	p.mu.Lock()
	p.problems = append(p.problems, problem)
	p.mu.Unlock()
}

// Problems returns the errors the page reported so far: exceptions, console
// errors, failed loads and Content Security Policy violations.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// Navigate loads url in the page; it returns once the navigation has
// started, before the page has rendered (see WaitFor).
func (p *Page) Navigate(url string) {
	p.t.Helper()
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	p.call("Page.navigate", map[string]any{"url": url}, &nav)
	if nav.ErrorText != "" {
		p.t.Fatalf("loading %s: %s", url, nav.ErrorText)
	}
}

// Eval evaluates a JavaScript expression in the page and decodes its value
// into result (a promise is awaited).
func (p *Page) Eval(expr string, result any) {
	p.t.Helper()
	if err := p.eval(expr, result); err != nil {
		p.t.Fatal(err)
	}
}

func (p *Page) eval(expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	err := p.b.call(p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	switch {
	case err != nil:
		return err
	case r.ExceptionDetails != nil:
		return fmt.Errorf("evaluating %s: %s", expr, r.ExceptionDetails.Text)
	case result == nil || r.Result.Value == nil:
		return nil
	}
	return json.Unmarshal(r.Result.Value, result)
}

// WaitFor waits until a JavaScript expression is true in the page, and
// fails the test, showing the page's text and problems, if it is not
// within Timeout.
func (p *Page) WaitFor(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(Timeout)
	for {
		var ok bool
		err := p.eval("Boolean("+expr+")", &ok)
		switch {
		case err == nil && ok:
			return
		case time.Now().After(deadline):
			p.t.Fatalf("waiting for %s: timed out after %v (last error: %v)\npage text:\n%s\nproblems: %q", expr, Timeout, err, p.text(), p.Problems())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Text returns the text the page shows (its body's innerText).
func (p *Page) Text() string {
	p.t.Helper()
	var s string
	p.Eval("document.body ? document.body.innerText : ''", &s)
	return s
}

// text is Text for failure messages: it never fails the test.
func (p *Page) text() string {
	var s string
	if err := p.eval("document.body ? document.body.innerText : ''", &s); err != nil {
		return "(" + err.Error() + ")"
	}
	return s
}

// Screenshot writes a PNG of the whole page (up to 4000 pixels high) to
// path.
func (p *Page) Screenshot(path string) {
	p.t.Helper()
	var metrics struct {
		CSSContentSize struct{ Width, Height float64 } `json:"cssContentSize"`
	}
	p.call("Page.getLayoutMetrics", map[string]any{}, &metrics)
	clip := map[string]any{"x": 0, "y": 0, "scale": 1,
		"width":  max(metrics.CSSContentSize.Width, float64(Viewport.Width)),
		"height": min(max(metrics.CSSContentSize.Height, float64(Viewport.Height)), 4000)}
	var shot struct {
		Data string `json:"data"`
	}
	p.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true, "clip": clip}, &shot)
	data, err := base64.StdEncoding.DecodeString(shot.Data)
	must(p.t, err)
	must(p.t, os.WriteFile(path, data, 0o644))
}
