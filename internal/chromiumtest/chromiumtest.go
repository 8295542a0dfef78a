// Package chromiumtest drives headless Chromium for tests over the DevTools
// protocol, spoken on a pipe (--remote-debugging-pipe) rather than a
// websocket, so it needs no port and no dependency. A test opens pages, each
// in a browser context of its own (no cookies shared), waits until a page
// has rendered, reads it and takes screenshots.
//
//	b := chromiumtest.Start(t) // skips (or fails, with CAIRN_REQUIRE_CHROMIUM=1) without Chromium
//	p := b.NewPage(t)
//	p.Navigate(url)
//	p.WaitFor(`document.body.dataset.state == "ready"`)
//	text := p.Text()
//	p.Screenshot(filepath.Join(t.ArtifactDir(), "stack.png"))
package chromiumtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// RequireEnv names the variable that, set to 1, turns "Chromium not found"
// into a test failure (CI sets it).
const RequireEnv = "CAIRN_REQUIRE_CHROMIUM"

// Timeout bounds each wait for the browser: a command's answer, or a
// condition WaitFor waits for.
const Timeout = time.Minute

// names are the names Chromium's binary has on PATH, in order of preference.
var names = []string{"chromium", "chromium-browser", "google-chrome"}

// Browser is a running headless Chromium.
type Browser struct {
	cmd    *exec.Cmd
	out    *os.File // commands to the browser (its fd 3)
	stderr *lockedBuffer

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan reply
	pages   map[string]*Page // by session ID
	done    chan struct{}    // closed when the browser's output ends
}

// reply is the answer to one command.
type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// message is anything the browser sends: a reply (ID set) or an event.
type message struct {
	reply
	ID        int             `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId"`
}

// Path returns the path of Chromium's binary, or "" when it is not on PATH.
func Path() string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// Start starts a headless Chromium for the test, stopped when it ends. It
// skips the test when Chromium is not on PATH, unless CAIRN_REQUIRE_CHROMIUM
// is 1.
func Start(t testing.TB) *Browser {
	t.Helper()
	bin := Path()
	if bin == "" {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("chromium is not on PATH, and %s=1 requires it: install it (apt-get install chromium)", RequireEnv)
		}
		t.Skipf("SKIPPED: chromium is not on PATH; install it (apt-get install chromium) to run this test, or set %s=1 to make this a failure", RequireEnv)
	}
	// Chromium reads commands on fd 3 and writes answers on fd 4.
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ansR, ansW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &Browser{out: cmdW, stderr: &lockedBuffer{}, waiting: map[int]chan reply{}, pages: map[string]*Page{},
		done: make(chan struct{})}
	b.cmd = exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--remote-debugging-pipe",
		"--user-data-dir="+t.TempDir(), "about:blank")
	b.cmd.ExtraFiles = []*os.File{cmdR, ansW}
	b.cmd.Stderr = b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	cmdR.Close()
	ansW.Close()
	go b.read(ansR)
	t.Cleanup(b.stop)
	return b
}

// stop closes the browser and waits for it to exit.
func (b *Browser) stop() {
	b.out.Close() // Chromium exits when its command pipe closes
	exited := make(chan struct{})
	go func() { b.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(Timeout):
		b.cmd.Process.Kill()
		<-exited
	}
}

// read dispatches what the browser writes: messages ended by NUL bytes.
func (b *Browser) read(in *os.File) {
	defer close(b.done)
	r := bufio.NewReader(in)
	for {
		data, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(data[:len(data)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch := b.waiting[m.ID]; ch != nil {
				ch <- m.reply
				delete(b.waiting, m.ID)
			}
		} else if p := b.pages[m.SessionID]; p != nil {
			p.event(m.Method, m.Params)
		}
		b.mu.Unlock()
	}
}

// call sends a command, to the browser or to a page's session, and decodes
// its result into result (when not nil).
func (b *Browser) call(session, method string, params, result any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan reply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := b.out.Write(append(data, 0)); err != nil {
		return fmt.Errorf("%s: the browser is gone: %v; its output:\n%s", method, err, b.stderr)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(r.Result, result)
	case <-b.done:
		return fmt.Errorf("%s: the browser exited; its output:\n%s", method, b.stderr)
	case <-time.After(Timeout):
		return fmt.Errorf("%s: no answer from the browser in %v", method, Timeout)
	}
}

// lockedBuffer collects a process's output while it runs.
type lockedBuffer struct {
	mu   sync.Mutex
	data []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.data = append(l.data, p...)
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.data)
}
