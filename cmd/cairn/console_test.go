package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/chromiumtest"
)

// consoleProgram is a project's program; the second update gives it the
// prefix "green" and the secret output password.
const consoleProgram = `name: shop
runtime: yaml
config:
  prefix:
    type: string
    default: blue
resources:
  pw:
    type: random:RandomPassword
    properties:
      length: 24
      special: false
  pet:
    type: random:RandomPet
    properties:
      prefix: ${prefix}
  greet:
    type: command:local:Command
    properties:
      create: echo hello ${pet.id}
outputs:
  petName: ${pet.id}
`

// TestConsoleInBrowser runs cairn as a user does: two updates of a
// project, the second with a secret output, then `cairn console`, whose
// printed address headless Chromium opens. The page shows the stack's
// resources, its outputs with the secret masked, and its two updates; the
// same address without its token shows none of them. While the page stays
// open, a third update runs: the page shows it running, with the step in
// flight, then its result.
func TestConsoleInBrowser(t *testing.T) {
	b := chromiumtest.Start(t)
	dir := t.TempDir()
	env := []string{"CAIRN_HOME=" + filepath.Join(dir, ".cairn"), "CAIRN_CONFIG_PASSPHRASE=console test", "NO_COLOR=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAIRN_") && !strings.HasPrefix(kv, "PULUMI_") {
			env = append(env, kv)
		}
	}
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command("cairn", args...)
		cmd.Dir, cmd.Env = dir, env
		return cmd
	}
	cairn := func(args ...string) string {
		t.Helper()
		out, err := command(args...).CombinedOutput()
		if err != nil {
			t.Fatalf("cairn %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	program := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	program(consoleProgram)
	cairn("stack", "init", "dev")
	cairn("up", "--yes")
	program(consoleProgram + "  password: ${pw.result}\n")
	cairn("config", "set", "prefix", "green")
	cairn("up", "--yes")
	password := strings.TrimSpace(cairn("stack", "output", "password", "--show-secrets"))
	pet := strings.TrimSpace(cairn("stack", "output", "petName"))
	if len(password) != 24 || !strings.HasPrefix(pet, "green-") {
		t.Fatalf("the stack's outputs: password %q, petName %q", password, pet)
	}

	// The console prints its address, then serves until interrupted.
	m, _ := startConsole(t, command("console", "--no-browser"), regexp.MustCompile(`^ +(http://127\.0\.0\.1:\d+/stacks/shop/dev#token=[A-Za-z0-9_-]{43})$`))
	url := m[1]

	p := b.NewPage(t)
	p.Navigate(url)
	p.WaitFor(`document.body.dataset.state == "ready" && document.querySelectorAll("tr.record").length == 2`)
	text := p.Text()
	for _, want := range []string{"shop / dev", "Outputs", "password\t[secret]", "petName\t" + pet,
		"pw random:index/randomPassword:RandomPassword", "pet random:index/randomPet:RandomPet " + pet, "greet command:local:Command",
		"Resources (6)", "+6 created", "~1 updated"} {
		if !strings.Contains(text, want) {
			t.Errorf("the stack's page does not show %q:\n%s", want, text)
		}
	}
	var html, href string
	p.Eval("document.documentElement.outerHTML", &html)
	p.Eval("location.href", &href)
	if strings.Contains(html, password) {
		t.Error("the stack's page holds the secret password")
	}
	if strings.Contains(href, "token") {
		t.Errorf("the token stayed in the address: %s", href)
	}
	p.Screenshot(filepath.Join(t.ArtifactDir(), "stack.png"))
	if pr := p.Problems(); len(pr) > 0 {
		t.Errorf("the stack's page reported problems: %q", pr)
	}

	stranger := b.NewPage(t)
	stranger.Navigate(url[:strings.Index(url, "#")])
	stranger.WaitFor(`document.body.dataset.state == "unauthorized"`)
	text = stranger.Text()
	for _, shown := range []string{pet, "pw", "greet", "[secret]", "update", "Outputs", "dev"} {
		if strings.Contains(text, shown) {
			t.Errorf("without the token, the page shows %q:\n%s", shown, text)
		}
	}
	stranger.Screenshot(filepath.Join(t.ArtifactDir(), "no-token.png"))

	// A third update waits, in its new command, for the file release.
	program(strings.Replace(consoleProgram, "outputs:\n", `  slow:
    type: command:local:Command
    properties:
      create: until [ -f release ]; do sleep 0.05; done; echo released
outputs:
  password: ${pw.result}
`, 1))
	up := command("up", "--yes")
	if err := up.Start(); err != nil {
		t.Fatal(err)
	}
	p.Eval(`window.notReloaded = true`, nil)
	p.WaitFor(`document.querySelector(".stack-head .badge.running") != null && document.body.innerText.includes("In progress") && ` +
		`document.body.innerText.includes("command:local:Command::slow (creating)")`)
	if err := os.WriteFile(filepath.Join(dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := up.Wait(); err != nil {
		t.Fatalf("the third update: %v", err)
	}
	p.WaitFor(`document.querySelectorAll("tr.record").length == 3 && document.querySelector('li[data-urn$="::slow"]') != null && ` +
		`document.querySelector(".stack-head .badge.running") == null && window.notReloaded`)
}

// startConsole starts cmd, a `cairn console`, and returns the submatches
// of the first line of its standard output that address matches, and a
// function that interrupts it, once, and checks that it ends cleanly,
// which the test's end calls too.
func startConsole(t *testing.T, cmd *exec.Cmd, address *regexp.Regexp) ([]string, func()) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := sync.OnceFunc(func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil || stderr.Len() > 0 {
			t.Errorf("cairn console, interrupted: %v\n%s", err, stderr.String())
		}
	})
	t.Cleanup(stop)
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if m := address.FindStringSubmatch(lines.Text()); m != nil {
			go func() {
				for lines.Scan() {
				}
			}()
			return m, stop
		}
	}
	t.Fatalf("cairn console printed no line matching %s", address)
	return nil, nil
}
