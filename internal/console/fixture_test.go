package console

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// plaintext is the secret of the fixture's stack: its password, an input
// and an output of a resource and an output of the stack. The console must
// never send it.
const plaintext = "hunter2-plaintext-of-the-password"

// fixture is a backend holding the stack shop/dev after two updates, its
// secrets encrypted with a passphrase the console is never given.
type fixture struct {
	dir     string // the local backend's folder
	backend backend.Backend
	ref     backend.StackRef
	sm      secrets.Manager
	urns    map[string]resource.URN // by name
}

// newFixture makes the fixture in a local backend.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	b, err := local.Open("file://"+dir, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := fill(t, b)
	f.dir = dir
	return f
}

// fill makes the fixture in b.
func fill(t *testing.T, b backend.Backend) *fixture {
	t.Helper()
	ctx := context.Background()
	sm, err := secrets.GeneratePassphraseManager("the passphrase")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{backend: b, ref: backend.StackRef{Project: "shop", Name: "dev"}, sm: sm, urns: map[string]resource.URN{}}
	if err := b.CreateStack(ctx, f.ref, nil, sm); err != nil {
		t.Fatal(err)
	}
	f.update(t, f.snapshot("blue", false), backend.Summary{Changes: map[string]int{"create": 5}})
	f.update(t, f.snapshot("green", true), backend.Summary{Changes: map[string]int{"update": 1, "create": 1, "same": 4},
		Violations: []policy.Violation{{Pack: "house-rules", Policy: "pets-named", Message: "pets need a colour", URN: f.urns["pet"], Level: policy.Advisory}}})
	return f
}

// urn is the URN of a resource of the fixture's stack.
func (f *fixture) urn(typ, name string) resource.URN {
	u := resource.NewURN(f.ref.Name, f.ref.Project, "", typ, name)
	f.urns[name] = u
	return u
}

// snapshot is the stack's state with pet's prefix; with greet, it has a
// command that depends on the pet.
func (f *fixture) snapshot(prefix string, greet bool) *snapshot.Snapshot {
	secret := resource.MakeSecret(resource.String(plaintext))
	root := &resource.State{URN: f.urn(resource.RootStackType, "shop-dev"), Type: resource.RootStackType,
		Inputs: resource.Map{}, Outputs: resource.Map{"petName": resource.String(prefix + "-pet"), "password": secret}}
	prov := &resource.State{URN: f.urn("pulumi:providers:random", "default"), Type: "pulumi:providers:random", Custom: true,
		ID: "prov-1", Inputs: resource.Map{}, Outputs: resource.Map{}}
	provRef := string(prov.URN) + "::prov-1"
	pet := &resource.State{URN: f.urn("random:index/randomPet:RandomPet", "pet"), Type: "random:index/randomPet:RandomPet",
		Custom: true, ID: resource.ID(prefix + "-pet"), Parent: root.URN, Provider: provRef,
		Inputs: resource.Map{"prefix": resource.String(prefix)}, Outputs: resource.Map{"id": resource.String(prefix + "-pet")}}
	pw := &resource.State{URN: f.urn("random:index/randomPassword:RandomPassword", "pw"), Type: "random:index/randomPassword:RandomPassword",
		Custom: true, ID: "none", Parent: root.URN, Provider: provRef,
		Inputs:  resource.Map{"length": resource.Number(16), "keepers": resource.Object(resource.Map{"seed": secret})},
		Outputs: resource.Map{"length": resource.Number(16), "result": secret}}
	snap := &snapshot.Snapshot{Resources: []*resource.State{root, prov, pet, pw}}
	if greet {
		snap.Resources = append(snap.Resources, &resource.State{URN: f.urn("command:local:Command", "greet"), Type: "command:local:Command",
			Custom: true, ID: "greet-1", Parent: root.URN, Provider: provRef, Dependencies: []resource.URN{pet.URN},
			PropertyDependencies: map[string][]resource.URN{"create": {pet.URN}},
			Inputs:               resource.Map{"create": resource.String("echo hello " + prefix)},
			Outputs:              resource.Map{"stdout": resource.String("hello " + prefix)}})
	}
	return snap
}

// update records an operation that wrote snap.
func (f *fixture) update(t *testing.T, snap *snapshot.Snapshot, sum backend.Summary) {
	t.Helper()
	ctx := context.Background()
	lock, err := f.backend.Lock(ctx, f.ref)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate, Secrets: f.sm})
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Finish(ctx, snap, sum); err != nil {
		t.Fatal(err)
	}
}

// savePlan saves a plan of the stack: pet's prefix becomes red, pw's
// secret keeper is kept, and a new resource is created.
func (f *fixture) savePlan(t *testing.T) string {
	t.Helper()
	secret := resource.MakeSecret(resource.String(plaintext))
	p := &plan.Plan{Stack: f.ref.Name, Project: f.ref.Project, Base: plan.Base{Version: 2}, Resources: map[resource.URN]plan.Step{
		f.urns["pet"]: {Op: "replace", Inputs: resource.Map{"prefix": resource.String("red"), "__seed": secret}},
		f.urns["pw"]:  {Op: "update", Inputs: resource.Map{"length": resource.Number(20), "keepers": resource.Object(resource.Map{"seed": secret})}},
		f.urn("random:index/randomId:RandomId", "tag"): {Op: "create", Inputs: resource.Map{"byteLength": resource.Number(4), "salt": secret}},
		f.urns["greet"]:    {Op: "same", Inputs: resource.Map{"create": resource.String("echo hello green")}},
		f.urns["shop-dev"]: {Op: "same", Inputs: resource.Map{}},
	}}
	path := filepath.Join(t.TempDir(), "plan.json")
	if _, err := plan.Save(path, p, f.sm); err != nil {
		t.Fatal(err)
	}
	return path
}

// server is a console serving the fixture, on a loopback port, until the
// test ends.
type server struct {
	*Console
	base string // http://127.0.0.1:PORT
}

func serve(t *testing.T, opts Options) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(ln, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &server{Console: c, base: "http://" + ln.Addr().String()}
}

// client is an HTTP client that keeps cookies and does not follow
// redirects.
func client(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// login gives the client the console's cookie, as the page's script does
// with the token of the URL's fragment.
func (s *server) login(t *testing.T, c *http.Client) {
	t.Helper()
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimPrefix(u.Fragment, "token=")
	resp, body := do(t, c, "POST", s.base+"/api/session", `{"token": "`+token+`"}`)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("POST /api/session with the token: %s %s", resp.Status, body)
	}
}

// do sends a request and returns the response with its body read.
func do(t *testing.T, c *http.Client, method, url, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(data)
}
