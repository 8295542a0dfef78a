package install

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// recorder is a loopback server that records the Authorization header of
// each request it answers, by path.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	auth map[string]string
}

func newRecorder(t *testing.T, tls bool, handle func(w http.ResponseWriter, r *http.Request)) *recorder {
	rec := &recorder{auth: map[string]string{}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.auth[r.URL.Path] = r.Header.Get("Authorization")
		rec.mu.Unlock()
		handle(w, r)
	})
	if tls {
		rec.Server = httptest.NewTLSServer(h)
	} else {
		rec.Server = httptest.NewServer(h)
	}
	t.Cleanup(rec.Close)
	return rec
}

// sent returns the Authorization header the request for path carried, and
// whether there was such a request.
func (r *recorder) sent(path string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.auth[path]
	return a, ok
}

func host(s *httptest.Server) string { return s.Listener.Addr().String() }

// A GitHub release on a trusted API host: the token goes with the release
// and the asset requests, and not with the asset's download, redirected to
// another host (as GitHub redirects to its storage), nor to an asset the
// release places on another host.
func TestGitHubTokenOnlyToTrustedHosts(t *testing.T) {
	body := demoTarball(t)
	storage := newRecorder(t, true, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) })
	var api *recorder
	assetHost := ""
	api = newRecorder(t, true, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repos/acme/pulumi-demo/releases/tags/v1.2.3":
			fmt.Fprintf(w, `{"assets":[{"name":%q,"url":"https://%s/asset/7"}]}`, spec.Asset(), assetHost)
		case "/asset/7":
			http.Redirect(w, r, storage.URL+"/blob/7", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	for _, tt := range []struct {
		name      string
		trusted   []string
		assetHost string
		want      map[*recorder]map[string]string // path: the Authorization it must have carried
	}{
		{"trusted API host", []string{host(api.Server)}, host(api.Server), map[*recorder]map[string]string{
			api:     {"/repos/acme/pulumi-demo/releases/tags/v1.2.3": "token t0ken", "/asset/7": "token t0ken"},
			storage: {"/blob/7": ""},
		}},
		{"host a program chose", nil, host(api.Server), map[*recorder]map[string]string{
			api:     {"/repos/acme/pulumi-demo/releases/tags/v1.2.3": "", "/asset/7": ""},
			storage: {"/blob/7": ""},
		}},
		{"asset on another host", []string{host(api.Server)}, host(storage.Server), map[*recorder]map[string]string{
			api:     {"/repos/acme/pulumi-demo/releases/tags/v1.2.3": "token t0ken"},
			storage: {"/asset/7": ""},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			api.auth, storage.auth, assetHost = map[string]string{}, map[string]string{}, tt.assetHost
			in := Installer{Dir: t.TempDir(), Client: api.Client(), GitHubToken: "t0ken", GitHubHosts: tt.trusted}
			s := spec
			s.Server = "github://" + host(api.Server) + "/acme"
			if _, err := in.Install(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			for rec, paths := range tt.want {
				for path, want := range paths {
					if got, ok := rec.sent(path); !ok || got != want {
						t.Errorf("%s: Authorization %q (requested: %v), want %q", path, got, ok, want)
					}
				}
			}
		})
	}
}

// The token goes over https only: not to a trusted host over plain http,
// nor on a redirect from https down to http.
func TestGitHubTokenOnlyOverHTTPS(t *testing.T) {
	body := demoTarball(t)
	plain := newRecorder(t, false, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) })
	secure := newRecorder(t, true, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/down/"+spec.Asset(), http.StatusFound)
	})
	trusted := []string{"127.0.0.1"} // both servers, on any port
	for _, server := range []string{plain.URL + "/direct", secure.URL + "/redirect"} {
		in := Installer{Dir: t.TempDir(), Client: secure.Client(), GitHubToken: "t0ken", GitHubHosts: trusted}
		s := spec
		s.Server = server
		if _, err := in.Install(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := secure.sent("/redirect/" + spec.Asset()); got != "token t0ken" {
		t.Errorf("the trusted https host got Authorization %q", got)
	}
	for _, path := range []string{"/direct/" + spec.Asset(), "/down/" + spec.Asset()} {
		if got, ok := plain.sent(path); !ok || got != "" {
			t.Errorf("%s over plain http: Authorization %q (requested: %v)", path, got, ok)
		}
	}
}

// A GitHub host not trusted with the token that refuses a request says that
// the token was not sent, and how to trust the host.
func TestGitHubUntrustedHostHint(t *testing.T) {
	ghe := newRecorder(t, true, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	in := Installer{Dir: t.TempDir(), Client: ghe.Client(), GitHubToken: "t0ken"}
	s := spec
	s.Server = "github://" + host(ghe.Server) + "/acme"
	_, err := in.Install(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "GITHUB_TOKEN was not sent to "+host(ghe.Server)) || !strings.Contains(err.Error(), "CAIRN_GITHUB_HOSTS") {
		t.Errorf("err = %v, want it to say the token was not sent and how to trust the host", err)
	}
}

func TestTrusts(t *testing.T) {
	in := Installer{GitHubHosts: []string{"ghe.example.com", "api.corp:8443"}}
	for raw, want := range map[string]bool{
		"https://api.github.com/repos/a/b":        true,
		"https://API.GitHub.com:443/x":            true,
		"http://api.github.com/repos/a/b":         false,
		"https://api.github.com.evil.com/x":       false,
		"https://evil.com/api.github.com":         false,
		"https://github.com/a/b/releases":         false,
		"https://objects.githubusercontent.com/x": false,
		"https://ghe.example.com/api/v3":          true,
		"https://ghe.example.com:9443/x":          true,
		"https://api.corp:8443/x":                 true,
		"https://api.corp/x":                      false,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := in.trusts(u); got != want {
			t.Errorf("trusts(%s) = %v, want %v", raw, got, want)
		}
	}
}
