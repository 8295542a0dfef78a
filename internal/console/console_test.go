package console

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/postgres"
	"github.com/cairn-iac/cairn/internal/pgtest"
)

// apiPaths are the API's documents for the fixture's stack.
var apiPaths = []string{"/api/stacks", "/api/stacks/shop/dev", "/api/stacks/shop/dev/version", "/api/plan"}

// TestTokenGuardsTheAPI checks that without the token's cookie, or with a
// wrong one, the API answers 401 and nothing of the stacks; that a wrong
// token gets no cookie; and that the right one gets an HttpOnly,
// SameSite=Strict cookie that opens the API.
func TestTokenGuardsTheAPI(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref, PlanFile: f.savePlan(t)})
	c := client(t)
	for _, p := range apiPaths {
		resp, body := do(t, c, "GET", s.base+p, "")
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "pet") || strings.Contains(body, "shop") {
			t.Errorf("GET %s without the token: %s %s; want 401 and nothing of the stack", p, resp.Status, body)
		}
	}
	resp, _ := do(t, c, "POST", s.base+"/api/session", `{"token": "not-the-token"}`)
	if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) > 0 {
		t.Errorf("POST /api/session with a wrong token: %s, cookies %v; want 401 and none", resp.Status, resp.Cookies())
	}
	forged := &http.Cookie{Name: s.cookie, Value: strings.Repeat("A", len(s.token))}
	req, _ := http.NewRequest("GET", s.base+"/api/stacks", nil)
	req.AddCookie(forged)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /api/stacks with a forged cookie: %v %v; want 401", resp.Status, err)
	}

	token := s.token
	resp, _ = do(t, c, "POST", s.base+"/api/session", `{"token": "`+token+`"}`)
	ck := resp.Cookies()
	if resp.StatusCode != http.StatusNoContent || len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Path != "/api/" ||
		ck[0].Value != token || ck[0].Name != s.cookie || !strings.HasSuffix(s.cookie, "-"+s.base[strings.LastIndex(s.base, ":")+1:]) {
		t.Fatalf("POST /api/session with the token: %s, cookies %v; want 204 and an HttpOnly SameSite=Strict cookie for /api/ named for the port", resp.Status, ck)
	}
	for _, p := range apiPaths {
		if resp, body := do(t, c, "GET", s.base+p, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with the cookie: %s %s", p, resp.Status, body)
		}
	}
}

// TestCookieScope checks the token's cookie as a browser keeps it, for
// 127.0.0.1 whatever the port: two consoles at once each keep their own,
// and neither's goes to the pages of another service on 127.0.0.1, nor to
// the consoles' own pages.
func TestCookieScope(t *testing.T) {
	f := newFixture(t)
	one, two := serve(t, Options{Stacks: f.backend}), serve(t, Options{Stacks: f.backend})
	var sent []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent = append(sent, r.URL.Path+": "+r.Header.Get("Cookie"))
	}))
	defer other.Close()
	c := client(t)
	one.login(t, c)
	two.login(t, c)
	for _, s := range []*server{one, two} {
		if resp, body := do(t, c, "GET", s.base+"/api/stacks", ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s/api/stacks with both consoles' cookies: %s %s", s.base, resp.Status, body)
		}
	}
	for _, p := range []string{"/", "/stacks/shop/dev", "/index.html"} {
		do(t, c, "GET", other.URL+p, "")
	}
	for _, got := range sent {
		if !strings.HasSuffix(got, ": ") {
			t.Errorf("another service on 127.0.0.1 got the console's cookie: %s", got)
		}
	}
	u, _ := url.Parse(one.base + "/stacks/shop/dev")
	if ck := c.Jar.Cookies(u); len(ck) != 0 {
		t.Errorf("the console's own pages are sent its cookies: %v", ck)
	}
}

// TestQueryToken checks that a token in the query is exchanged for the
// cookie and taken out of the address, other parameters kept, and that a
// wrong one is taken out too, with no cookie.
func TestQueryToken(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend})
	c := client(t)
	resp, _ := do(t, c, "GET", s.base+"/stacks/shop/dev/resource?token=wrong&urn=u", "")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/stacks/shop/dev/resource?urn=u" || len(resp.Cookies()) > 0 {
		t.Errorf("a wrong token in the query: %s, Location %q, cookies %v", resp.Status, resp.Header.Get("Location"), resp.Cookies())
	}
	if resp, _ := do(t, c, "GET", s.base+"/api/stacks", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("after a wrong token: %s, want 401", resp.Status)
	}
	resp, _ = do(t, c, "GET", s.base+"/stacks/shop/dev/resource?token="+s.token+"&urn=u", "")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/stacks/shop/dev/resource?urn=u" || len(resp.Cookies()) != 1 {
		t.Errorf("the token in the query: %s, Location %q, cookies %v", resp.Status, resp.Header.Get("Location"), resp.Cookies())
	}
	if resp, body := do(t, c, "GET", s.base+"/api/stacks", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("after the token: %s %s", resp.Status, body)
	}
}

// TestHeaders checks the content types, the policy and the caching of
// pages, assets and API documents, and that every embedded asset is
// served with a type.
func TestHeaders(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref})
	c := client(t)
	s.login(t, c)
	want := map[string][2]string{
		"/":                        {"text/html; charset=utf-8", "no-cache"},
		"/stacks/shop/dev":         {"text/html; charset=utf-8", "no-cache"},
		"/stacks/shop/dev/graph":   {"text/html; charset=utf-8", "no-cache"},
		"/api/stacks":              {"application/json; charset=utf-8", "no-store"},
		"/api/stacks/shop/dev":     {"application/json; charset=utf-8", "no-store"},
		"/api/stacks/shop/nothere": {"application/json; charset=utf-8", "no-store"},
	}
	err := fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			typ, ok := contentTypes[path.Ext(p)]
			if !ok {
				t.Errorf("the asset %s has no content type", p)
			}
			want["/"+p] = [2]string{typ, "no-cache"}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, w := range want {
		resp, _ := do(t, c, "GET", s.base+p, "")
		h := resp.Header
		if h.Get("Content-Type") != w[0] || h.Get("Cache-Control") != w[1] || h.Get("Content-Security-Policy") != securityPolicy ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: %s; Content-Type %q, Cache-Control %q, policy %q, nosniff %q; want %q, %q",
				p, resp.Status, h.Get("Content-Type"), h.Get("Cache-Control"), h.Get("Content-Security-Policy"),
				h.Get("X-Content-Type-Options"), w[0], w[1])
		}
	}
	for _, p := range []string{"/assets/nothere.js", "/elsewhere", "/stacks/shop"} {
		if resp, _ := do(t, c, "GET", s.base+p, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %s, want 404", p, resp.Status)
		}
	}
	if resp, _ := do(t, c, "POST", s.base+"/api/stacks", ""); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /api/stacks: %s, want 405", resp.Status)
	}
}

// TestOtherHostRefused checks that a console on loopback answers only
// requests naming a loopback host (on any port: an SSH tunnel may forward
// another), so that a page of another site whose name resolves to
// 127.0.0.1 reads nothing.
func TestOtherHostRefused(t *testing.T) {
	f := newFixture(t)
	s := serve(t, Options{Stacks: f.backend})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(s.base, "http://"))
	for host, want := range map[string]int{"evil.example:" + port: http.StatusForbidden, "127.0.0.1.evil.example:" + port: http.StatusForbidden,
		"localhost:" + port: http.StatusOK, "127.0.0.1:" + port: http.StatusOK, "localhost:8080": http.StatusOK} {
		req, _ := http.NewRequest("GET", s.base+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %s, want %d", host, resp.Status, want)
		}
	}
}

// TestAssetsSelfContained checks that the application builds its pages
// from text, never from markup, runs no code from strings, and refers to
// nothing outside the console.
func TestAssetsSelfContained(t *testing.T) {
	banned := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|style=|https?://`)
	err := fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets, p)
		for _, m := range banned.FindAllString(strings.ReplaceAll(string(data), "http://www.w3.org/2000/svg", ""), -1) {
			t.Errorf("%s holds %q", p, m)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStackDocument checks what the API sends of a stack: its resources
// with their parents, providers and dependencies, its outputs, its two
// updates with their changes and policy violations.
func TestStackDocument(t *testing.T) {
	checkStackDocument(t, newFixture(t))
}

func checkStackDocument(t *testing.T, f *fixture) {
	s := serve(t, Options{Stacks: f.backend, Current: f.ref})
	c := client(t)
	s.login(t, c)
	_, body := do(t, c, "GET", s.base+"/api/stacks/shop/dev", "")
	var v stackView
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range v.Resources {
		names = append(names, r.Name)
	}
	if strings.Join(names, " ") != "shop-dev default pet pw greet" {
		t.Errorf("resources %q, want shop-dev default pet pw greet", names)
	}
	greet := v.Resources[4]
	if greet.Parent != f.urns["shop-dev"] || greet.Provider != f.urns["default"] || len(greet.Dependencies) != 1 || greet.Dependencies[0] != f.urns["pet"] {
		t.Errorf("greet: parent %s, provider %s, dependencies %v", greet.Parent, greet.Provider, greet.Dependencies)
	}
	if v.Outputs["petName"] != "green-pet" || !isSecret(v.Outputs["password"]) {
		t.Errorf("outputs %v, want petName green-pet and password {secret: true}", v.Outputs)
	}
	pw := v.Resources[3]
	if !isSecret(pw.Outputs["result"]) || !isSecret(pw.Inputs["keepers"].(map[string]any)["object"].(map[string]any)["seed"]) || pw.Inputs["length"] != 16.0 {
		t.Errorf("pw: inputs %v, outputs %v; want its result and keeper secret", pw.Inputs, pw.Outputs)
	}
	if len(v.History) != 2 || v.History[0].Version != 2 || v.History[1].Version != 1 || v.History[0].ResourceChanges["update"] != 1 ||
		v.History[1].ResourceChanges["create"] != 5 || len(v.History[0].Policies) != 1 || v.History[0].Policies[0].PolicyName != "pets-named" {
		t.Errorf("history %+v, want versions 2 and 1, their changes, and 2's policy violation", v.History)
	}

	_, body = do(t, c, "GET", s.base+"/api/stacks", "")
	var list stackList
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Stacks) != 1 || list.Stacks[0].Name != "dev" || list.Stacks[0].Resources != 5 || list.Stacks[0].Last == nil ||
		list.Stacks[0].Last.Version != 2 || list.Stacks[0].Running != nil || list.Current == nil || list.Current.Name != "dev" {
		t.Errorf("stacks %s", body)
	}
	if resp, _ := do(t, c, "GET", s.base+"/api/stacks/shop/nothere", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown stack: %s, want 404", resp.Status)
	}
	if resp, _ := do(t, c, "GET", s.base+"/api/plan", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the plan of a console without one: %s, want 404", resp.Status)
	}
}

func isSecret(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 1 && m["secret"] == true
}

// TestNoSecretSent checks every API document for the stack's secret, in
// plaintext or as any ciphertext the state holds.
func TestNoSecretSent(t *testing.T) {
	checkNoSecretSent(t, newFixture(t))
}

func checkNoSecretSent(t *testing.T, f *fixture) {
	s := serve(t, Options{Stacks: f.backend, Current: f.ref, PlanFile: f.savePlan(t)})
	c := client(t)
	s.login(t, c)
	state, err := f.backend.Export(context.Background(), f.ref, backend.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ciphertexts := regexp.MustCompile(`v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+`).FindAllString(string(state.Deployment), -1)
	if len(ciphertexts) == 0 {
		t.Fatal("the state holds no ciphertext: the fixture has no secret")
	}
	for _, p := range apiPaths {
		resp, body := do(t, c, "GET", s.base+p, "")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s %s", p, resp.Status, body)
		}
		for _, secret := range append(ciphertexts, plaintext) {
			if strings.Contains(body, secret) {
				t.Errorf("GET %s sent %q", p, secret)
			}
		}
	}
}

// TestPlanDocument checks the changes of a saved plan: operations, the
// properties each changes, secrets sealed, bookkeeping left out.
func TestPlanDocument(t *testing.T) {
	f := newFixture(t)
	file := f.savePlan(t)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref, PlanFile: file})
	c := client(t)
	s.login(t, c)
	_, body := do(t, c, "GET", s.base+"/api/plan", "")
	var p planView
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, st := range p.Steps {
		var cs []string
		for _, ch := range st.Changes {
			cs = append(cs, ch.Key+":"+text(ch.Old)+"→"+text(ch.New)+map[bool]string{true: "(sealed)"}[ch.Sealed])
		}
		got[st.Op+" "+st.Name] = strings.Join(cs, " ")
	}
	want := map[string]string{
		"replace pet": "prefix:green→red",
		"update pw":   "keepers:{object}→{object}(sealed) length:16→20",
		"create tag":  "byteLength:→4 salt:→{secret}",
	}
	if len(got) != len(want) || p.Unchanged != 2 || p.File != file || p.BaseVersion != 2 {
		t.Errorf("plan %s", body)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: changes %q, want %q", k, got[k], w)
		}
	}

	other := backend.StackRef{Project: "shop", Name: "prod"}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := New(ln, Options{Stacks: f.backend, Current: other, PlanFile: file}); err == nil || !strings.Contains(err.Error(), `it is for stack "dev"`) {
		t.Errorf("a plan of another stack: %v", err)
	}
}

// text is a value of the API, short: a tagged value by its tag.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case map[string]any:
		for k := range x {
			return "{" + k + "}"
		}
	}
	return strings.Trim(string(mustJSON(v)), `"`)
}

func mustJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}

// TestVersion checks that a stack's version changes when its lock is taken
// (an operation starts) and when an operation writes its state, and that
// the stack's document carries it.
func TestVersion(t *testing.T) {
	checkVersion(t, newFixture(t))
}

func checkVersion(t *testing.T, f *fixture) {
	s := serve(t, Options{Stacks: f.backend})
	c := client(t)
	s.login(t, c)
	version := func() string {
		var v struct{ Version string }
		_, body := do(t, c, "GET", s.base+"/api/stacks/shop/dev/version", "")
		if err := json.Unmarshal([]byte(body), &v); err != nil || v.Version == "" {
			t.Fatalf("version: %s", body)
		}
		return v.Version
	}
	before := version()
	var doc struct{ Version string }
	_, body := do(t, c, "GET", s.base+"/api/stacks/shop/dev", "")
	if json.Unmarshal([]byte(body), &doc); doc.Version != before {
		t.Errorf("the stack's document has version %q, the version is %q", doc.Version, before)
	}
	if again := version(); again != before {
		t.Errorf("the version changed from %s to %s with nothing done", before, again)
	}
	lock, err := f.backend.Lock(context.Background(), f.ref)
	if err != nil {
		t.Fatal(err)
	}
	running := version()
	if running == before {
		t.Error("the version did not change when the stack's lock was taken")
	}
	lock.Release()
	f.update(t, f.snapshot("red", true), backend.Summary{Changes: map[string]int{"update": 1}})
	if after := version(); after == before || after == running {
		t.Error("the version did not change when an update wrote the state")
	}
}

// TestReadOnly checks that serving every document changes no file of the
// backend.
func TestReadOnly(t *testing.T) {
	f := newFixture(t)
	before := tree(t, f.dir)
	s := serve(t, Options{Stacks: f.backend, Current: f.ref, PlanFile: f.savePlan(t)})
	c := client(t)
	s.login(t, c)
	for _, p := range append(apiPaths, "/", "/stacks/shop/dev", "/assets/app.js") {
		if resp, body := do(t, c, "GET", s.base+p, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s %s", p, resp.Status, body)
		}
	}
	after := tree(t, f.dir)
	if len(after) != len(before) {
		t.Errorf("the backend had %d files, and has %d", len(before), len(after))
	}
	for p, sum := range before {
		if after[p] != sum {
			t.Errorf("%s changed", p)
		}
	}
}

// tree hashes the files under dir, by path.
func tree(t *testing.T, dir string) map[string][32]byte {
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = sha256.Sum256(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPostgres serves the fixture from the PostgreSQL backend: the same
// documents, no secret, and versions that follow its locks and updates.
func TestPostgres(t *testing.T) {
	srv := pgtest.New(t)
	for name, check := range map[string]func(*testing.T, *fixture){
		"document": checkStackDocument, "secrets": checkNoSecretSent, "version": checkVersion,
	} {
		t.Run(name, func(t *testing.T) {
			b, err := postgres.Open(context.Background(), srv.Database(t, "console"), postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(b.Close)
			check(t, fill(t, b))
		})
	}
}
