package main

import (
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestConsoleTokenNotInArgv runs `cairn console` with BROWSER set to a
// script that records what it was given and waits: while it runs, the
// console's token is on no process's command line (/proc/*/cmdline), the
// script's included; the script was given a page readable only by the
// user, in a folder only the user can open, whose redirect leads to the
// console with the token, and which is removed when the console stops.
func TestConsoleTokenNotInArgv(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("SKIPPED: /proc is not mounted")
	}
	dir := t.TempDir()
	opened, release := filepath.Join(dir, "opened"), filepath.Join(dir, "release")
	browser := filepath.Join(dir, "fake-browser")
	script := "#!/bin/sh\nfor a; do :; done\necho \"$a\" > '" + opened + ".tmp' && mv '" + opened + ".tmp' '" + opened + "'\n" +
		"while [ ! -e '" + release + "' ]; do sleep 0.05; done\n"
	if err := os.WriteFile(browser, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.WriteFile(release, nil, 0o644) })
	cmd := exec.Command("cairn", "console")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_HOME="+filepath.Join(dir, ".cairn"), "BROWSER="+browser+" --new-window %s")
	m, stop := startConsole(t, cmd, regexp.MustCompile(`^ +(http://127\.0\.0\.1:\d+/#token=([A-Za-z0-9_-]{43}))$`))
	consoleURL, token := m[1], m[2]
	var pageURL string
	for deadline := time.Now().Add(time.Minute); pageURL == ""; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(opened); err == nil {
			pageURL = strings.TrimSpace(string(b))
		} else if time.Now().After(deadline) {
			t.Fatal("the browser was not started within a minute")
		}
	}

	// The fake browser still runs: it and every other process are listed.
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	sawBrowser := false
	for _, path := range cmdlines {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the process has ended
		}
		argv := strings.ReplaceAll(string(b), "\x00", " ")
		if strings.Contains(argv, token) {
			t.Errorf("the token is on the command line of %s: %s", path, argv)
		}
		sawBrowser = sawBrowser || strings.Contains(argv, "--new-window "+pageURL)
	}
	if !sawBrowser {
		t.Errorf("no process runs the fake browser with %q as $BROWSER asks: the scan missed it", pageURL)
	}

	u, err := url.Parse(pageURL)
	if err != nil || u.Scheme != "file" {
		t.Fatalf("the browser was given %q, not a file:// URL", pageURL)
	}
	for path, want := range map[string]os.FileMode{u.Path: 0o600, filepath.Dir(u.Path): 0o700 | os.ModeDir} {
		if info, err := os.Stat(path); err != nil || info.Mode() != want {
			t.Errorf("%s: %v, mode %v; want %v", path, err, info.Mode(), want)
		}
	}
	page, err := os.ReadFile(u.Path)
	if err != nil {
		t.Fatal(err)
	}
	redirect := regexp.MustCompile(`<meta http-equiv="refresh" content="0;url=([^"]+)">`).FindSubmatch(page)
	if redirect == nil || html.UnescapeString(string(redirect[1])) != consoleURL {
		t.Fatalf("the page does not redirect to %s:\n%s", consoleURL, page)
	}

	// Its address works: its token, given as the page's script gives it,
	// opens the API.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	base := consoleURL[:strings.Index(consoleURL, "/#")]
	resp, err := client.Post(base+"/api/session", "application/json", strings.NewReader(`{"token": "`+token+`"}`))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("POST /api/session with the page's token: %v %v", err, resp.Status)
	}
	if resp, err := client.Get(base + "/api/stacks"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET /api/stacks after: %v %v", err, resp.Status)
	}

	stop()
	if _, err := os.Stat(filepath.Dir(u.Path)); !os.IsNotExist(err) {
		t.Errorf("the page's folder is left behind: %v", err)
	}
}
