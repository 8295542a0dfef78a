package console

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/internal/chromiumtest"
)

// ready is true once the page has drawn the page named (its data-page).
func ready(page string) string {
	return `document.body.dataset.state == "ready" && document.body.dataset.page == "` + page + `"`
}

// open opens the console's URL, with its token, at path.
func open(t *testing.T, b *chromiumtest.Browser, s *server, path string) *chromiumtest.Page {
	t.Helper()
	p := b.NewPage(t)
	u := s.URL()
	p.Navigate(s.base + path + u[strings.Index(u, "#"):])
	return p
}

// noProblems fails the test if the page reported errors: exceptions, failed
// loads, Content Security Policy violations.
func noProblems(t *testing.T, p *chromiumtest.Page) {
	t.Helper()
	if pr := p.Problems(); len(pr) > 0 {
		t.Errorf("the page reported problems: %q", pr)
	}
}

// TestBrowserGraph draws the stack's graph in Chromium, searches it, zooms
// it, and follows a resource's box to its page, whose secrets show as
// [secret].
func TestBrowserGraph(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref})
	b := chromiumtest.Start(t)
	p := open(t, b, s, "/stacks/shop/dev/graph")
	p.WaitFor(ready("graph") + ` && document.querySelector(".graph-tools .zoom").textContent != ""`)
	var n struct{ Nodes, Edges, Dependencies, Providers, Parents int }
	p.Eval(`({nodes: document.querySelectorAll("svg.graph a.node").length,
		edges: document.querySelectorAll("svg.graph path.edge").length,
		dependencies: document.querySelectorAll("path.edge.dependency").length,
		providers: document.querySelectorAll("path.edge.provider").length,
		parents: document.querySelectorAll("path.edge.parent").length})`, &n)
	if n.Nodes != 5 || n.Dependencies != 1 || n.Providers != 3 || n.Parents != 3 {
		t.Errorf("the graph has %+v; want 5 resources, 1 dependency, 3 provider and 3 parent edges", n)
	}
	// greet depends on pet, so it is drawn to its right.
	var right bool
	p.Eval(`(() => { const x = u => document.querySelector('a.node[data-urn="' + u + '"]').transform.baseVal.consolidate().matrix.e;
		return x("`+string(f.urns["greet"])+`") > x("`+string(f.urns["pet"])+`") })()`, &right)
	if !right {
		t.Error("greet is not to the right of pet, which it depends on")
	}
	p.Eval(`(() => { const i = document.querySelector(".graph-tools input"); i.value = "PET"; i.dispatchEvent(new Event("input")) })()`, nil)
	var found struct {
		Matches int
		Count   string
	}
	p.Eval(`({matches: document.querySelectorAll("a.node.match").length, count: document.querySelector(".graph-tools .count").textContent})`, &found)
	if found.Matches != 1 || found.Count != "1 of 5 match" {
		t.Errorf("searching for PET: %+v, want the pet alone", found)
	}
	var zoom [2]string
	p.Eval(`document.querySelector(".graph-tools .zoom").textContent`, &zoom[0])
	p.Eval(`document.querySelector('.graph-tools button[title="zoom in"]').click()`, nil)
	p.Eval(`document.querySelector(".graph-tools .zoom").textContent`, &zoom[1])
	if zoom[0] != "100%" || zoom[1] != "125%" {
		t.Errorf("zoom %s, then %s after zooming in; want 100%%, then 125%%", zoom[0], zoom[1])
	}
	p.Screenshot(filepath.Join(t.ArtifactDir(), "graph.png"))
	noProblems(t, p)

	p.Eval(`document.querySelector('a.node[data-urn="`+string(f.urns["pw"])+`"]').dispatchEvent(new MouseEvent("click", {bubbles: true, button: 0}))`, nil)
	p.WaitFor(ready("resource"))
	text := p.Text()
	for _, want := range []string{"random:index/randomPassword:RandomPassword", "result\t[secret]", "seed\t[secret]", "length\t16", "Provider\trandom"} {
		if !strings.Contains(text, want) {
			t.Errorf("the resource's page does not show %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, plaintext) {
		t.Error("the resource's page shows the secret")
	}
	noProblems(t, p)
}

// TestBrowserHistoryAndPlan draws the stack's history, with its policy
// violation, and the plan's changes.
func TestBrowserHistoryAndPlan(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref, PlanFile: f.savePlan(t)})
	b := chromiumtest.Start(t)
	p := open(t, b, s, "/stacks/shop/dev/history")
	p.WaitFor(ready("history"))
	text := p.Text()
	for _, want := range []string{"History (2 operations)", "~1 updated", "+1 created", "4 unchanged", "+5 created",
		"advisory house-rules/pets-named on pet: pets need a colour"} {
		if !strings.Contains(text, want) {
			t.Errorf("the history does not show %q:\n%s", want, text)
		}
	}
	noProblems(t, p)

	p.Eval(`document.querySelector('.tabs a[href$="/plan"]').click()`, nil)
	p.WaitFor(ready("plan"))
	text = p.Text()
	for _, want := range []string{"replace\tpet", "prefix\tgreen\t→\tred", "update\tpw", "length\t16\t→\t20",
		"create\ttag", "salt\t—\t→\t[secret]", "2 resources stay as they are"} {
		if !strings.Contains(text, want) {
			t.Errorf("the plan does not show %q:\n%s", want, text)
		}
	}
	p.Screenshot(filepath.Join(t.ArtifactDir(), "plan.png"))
	noProblems(t, p)
}

// TestBrowserFollowsOperations keeps a stack's page open while an
// operation takes the lock and then writes a third version: the page
// shows it running, then the new state and update, without being
// reloaded.
func TestBrowserFollowsOperations(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref})
	b := chromiumtest.Start(t)
	p := open(t, b, s, "/stacks/shop/dev")
	p.WaitFor(ready("overview") + ` && document.querySelectorAll("tr.record").length == 2`)
	p.Eval(`window.notReloaded = true`, nil)
	lock, err := f.backend.Lock(context.Background(), f.ref)
	if err != nil {
		t.Fatal(err)
	}
	p.WaitFor(`document.querySelector(".stack-head .badge.running") != null`)
	lock.Release()
	f.update(t, f.snapshot("red", true), backend.Summary{Changes: map[string]int{"update": 1, "same": 4}})
	p.WaitFor(`document.querySelectorAll("tr.record").length == 3 && document.body.innerText.includes("red-pet") && window.notReloaded`)
	noProblems(t, p)
}
