package tfinstall

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// answers is a transport that answers every GET from memory, as one
// registry would: the service discovery document, a versions list (of a
// provider or a module), a download answer, and any other file (the
// checksums, the archive) with other.
type answers struct{ disco, versions, download, other []byte }

func (a answers) RoundTrip(req *http.Request) (*http.Response, error) {
	body := a.other
	switch p := req.URL.Path; {
	case p == "/.well-known/terraform.json":
		body = a.disco
	case strings.HasSuffix(p, "/versions"):
		body = a.versions
	case strings.Contains(p, "/download"):
		body = a.download
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {"application/json"}}, Request: req,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}, nil
}

// FuzzRegistryAnswers gives the provider and module registry clients
// arbitrary answers: no answer panics, a discovered service is an http(s)
// folder, the versions found are versions listed for this platform, the
// module version chosen meets the constraints, a package location is
// absolute, and a package fetched is checked against the shasum the
// registry gave. The seeds are the answers of the test registry.
func FuzzRegistryAnswers(f *testing.F) {
	goos, goarch, _ := strings.Cut(platform, "_")
	disco := `{"providers.v1":"/v1/providers/","modules.v1":"/v1/modules/"}`
	sum := strings.Repeat("ab", 32)
	f.Add([]byte(disco),
		[]byte(`{"versions":[{"version":"1.2.0","protocols":["5.0"],"platforms":[{"os":"`+goos+`","arch":"`+goarch+`"},{"os":"plan9","arch":"mips"}]},{"version":"2.0.0","protocols":["4"]}],"warnings":["old"]}`),
		[]byte(`{"protocols":["5.0"],"os":"`+goos+`","arch":"`+goarch+`","filename":"p.zip","download_url":"https://releases.example.com/p.zip","shasums_url":"/SHA256SUMS","shasums_signature_url":"/SHA256SUMS.sig","shasum":"`+sum+`","signing_keys":{"gpg_public_keys":[]}}`),
		[]byte(sum+"  p.zip\n"))
	f.Add([]byte(`{"providers.v1":"https://api.example.com/p","modules.v1":"../m"}`),
		[]byte(`{"modules":[{"versions":[{"version":"0.1.0"},{"version":"1.0.0-beta"},{"version":"x"}]}]}`),
		[]byte(`{"location":"./archives/m.tar.gz"}`), []byte(`{}`))
	f.Add([]byte(`{"providers.v1":"ftp://x/"}`), []byte(`{"versions":null}`), []byte(`[]`), []byte(nil))
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, disco, versions, download, other []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c := newClient(&http.Client{Transport: answers{disco, versions, download, other}}, &cliConfig{})
		for _, service := range []string{"providers.v1", "modules.v1"} {
			api, err := c.discover(ctx, "example.com", service)
			if err == nil && (api.Scheme != "https" && api.Scheme != "http" || !strings.HasSuffix(api.Path, "/")) {
				t.Fatalf("%s is %s, not an http(s) folder", service, api)
			}
		}

		p := Provider{Hostname: tfaddr.DefaultHost, Namespace: "hashicorp", Type: "null"}
		r := &registry{host: p.Hostname, client: c, log: func(string, ...any) {}}
		vs, err := r.versions(ctx, p)
		for _, v := range vs {
			if again, err := tfaddr.ParseVersion(v.String()); err != nil || again != v {
				t.Fatalf("version %s found reads back as %s, %v", v, again, err)
			}
		}
		if err == nil && len(vs) > 0 {
			got, err := r.fetch(ctx, p, vs[0], tmp)
			if err == nil {
				os.Remove(got.zip)
				if len(got.want) != 1 || !bytes.Contains(bytes.ToLower(download), []byte(strings.TrimPrefix(got.want[0], schemeZip))) {
					t.Fatalf("the package is checked against %v, not the shasum of the answer %s", got.want, download)
				}
			}
		}

		m := &moduleRegistry{client: c, apis: map[tfaddr.Host]*url.URL{}}
		mod, err := tfaddr.ParseModule("example.com/corp/net/aws")
		if err != nil {
			t.Fatal(err)
		}
		cs, _ := tfaddr.ParseModuleConstraints(">= 0.1.0")
		v, err := m.version(ctx, &mod, cs)
		if err != nil {
			return
		}
		if !cs.Allows(v) {
			t.Fatalf("version %s chosen, which %s does not allow", v, cs)
		}
		loc, err := m.location(ctx, &mod, v)
		if err == nil && (loc == "" || strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "./") || strings.HasPrefix(loc, "../")) {
			t.Fatalf("the package location %q is not absolute", loc)
		}
	})
}
