package tfinstall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/httpauth"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
	"github.com/opentofu/svchost/disco"
	"github.com/opentofu/svchost/svcauth"
)

// errNotFound marks an answer that a source does not have what was asked
// for, as opposed to a failure to ask.
var errNotFound = errors.New("not found")

// client makes the requests of an installation: it adds the token of the
// host a request is made for, retries failures that may pass, and bounds
// metadata requests by TF_REGISTRY_CLIENT_TIMEOUT. Service discovery is
// OpenTofu's, with the same tokens and the CLI configuration's host blocks.
type client struct {
	http        *http.Client
	credentials svcauth.CredentialsSource
	disco       *disco.Disco
	timeout     time.Duration
}

func newClient(base *http.Client, cfg *cliConfig) *client {
	// A token never follows a redirect to another host, nor (as Guard
	// ensures) from https to plain http.
	c := httpauth.Guard(base, func(req *http.Request, via []*http.Request) bool {
		return urlHost(req.URL) == urlHost(via[0].URL)
	})
	timeout := 10 * time.Second
	if s, err := strconv.Atoi(os.Getenv("TF_REGISTRY_CLIENT_TIMEOUT")); err == nil && s > 0 {
		timeout = time.Duration(s) * time.Second
	}
	creds := map[tfaddr.Host]svcauth.HostCredentials{}
	for host, token := range tokens(cfg.credentials) {
		creds[host] = svcauth.HostCredentialsToken(token)
	}
	src := svcauth.StaticCredentialsSource(creds)
	d := disco.New(disco.WithHTTPClient(c), disco.WithCredentials(src))
	for host, services := range cfg.hosts {
		d.ForceHostServices(host, services)
	}
	return &client{http: c, credentials: src, disco: d, timeout: timeout}
}

// tokens returns the bearer tokens by host: TF_TOKEN_<host> variables
// (dots written as _, dashes as __) over the CLI configuration's
// credentials blocks.
func tokens(configured map[tfaddr.Host]string) map[tfaddr.Host]string {
	out := map[tfaddr.Host]string{}
	for h, t := range configured {
		out[h] = t
	}
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		rest, ok := strings.CutPrefix(name, "TF_TOKEN_")
		if !ok || rest == "" || value == "" {
			continue
		}
		host := strings.ReplaceAll(strings.ReplaceAll(rest, "__", "-"), "_", ".")
		if h, err := tfaddr.ParseLenientHost(host); err == nil {
			out[h] = value
		}
	}
	return out
}

// request is one GET: auth names the host whose token goes with it, as
// OpenTofu sends them: a registry's requests carry the token of the host
// of the provider or module address (even when its service discovery
// points at another host), a network mirror's the token of the mirror's
// host; archives go without ("" names none). meta bounds it by the
// metadata timeout; max, when set, bounds a download's size.
type request struct {
	url     *url.URL
	auth    tfaddr.Host
	meta    bool
	retries int
	max     int64
}

// get returns the response to a successful GET (200, or 204 from a module
// registry), whose body the caller closes; a 404 or 410 is errNotFound.
func (c *client) get(ctx context.Context, r request) (*http.Response, error) {
	cancel := context.CancelFunc(func() {})
	if r.meta {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	resp, err := c.try(ctx, r)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

// try makes the request, again after a failure that may pass (no answer,
// a 5xx or a 429), up to r.retries more times.
func (c *client) try(ctx context.Context, r request) (*http.Response, error) {
	var creds svcauth.HostCredentials
	if r.auth != "" {
		creds, _ = c.credentials.ForHost(ctx, r.auth)
	}
	hasToken := creds != nil
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "Cairn")
		if hasToken {
			creds.PrepareRequest(req)
		}
		resp, err := c.http.Do(req)
		if err == nil {
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNoContent {
				return resp, nil
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			switch code := resp.StatusCode; {
			case code == http.StatusNotFound || code == http.StatusGone:
				return nil, errNotFound
			case (code == http.StatusUnauthorized || code == http.StatusForbidden) && r.auth != "":
				return nil, refused(resp.Status, r.auth, hasToken)
			case code < 500 && code != http.StatusTooManyRequests:
				return nil, errors.New(resp.Status)
			}
			err = errors.New(resp.Status)
		}
		if attempt >= r.retries || ctx.Err() != nil {
			return nil, err
		}
		select {
		case <-time.After(time.Duration(attempt+1) * 500 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// refused is the error of a request for host that was refused with
// status, saying where its token comes from.
func refused(status string, host tfaddr.Host, hasToken bool) error {
	if hasToken {
		return fmt.Errorf("%s: the token for %s (from TF_TOKEN_%s or the CLI configuration's credentials block) was refused", status, host.ForDisplay(), envHost(host))
	}
	return fmt.Errorf("%s (set TF_TOKEN_%s or a credentials block for %s in the CLI configuration)", status, envHost(host), host.ForDisplay())
}

// envHost writes a hostname as a TF_TOKEN_ variable suffix.
func envHost(host tfaddr.Host) string {
	return strings.ReplaceAll(strings.ReplaceAll(host.String(), "-", "__"), ".", "_")
}

// urlHost is the host a URL names, as credentials are keyed; "" when it
// is not a valid hostname.
func urlHost(u *url.URL) tfaddr.Host {
	h, _ := tfaddr.ParseLenientHost(u.Host)
	return h
}

// getJSON decodes the JSON document at r.url into v, returning the URL it
// was finally read from (after redirects), which relative URLs in it
// resolve against.
func (c *client) getJSON(ctx context.Context, r request, v any) (*url.URL, error) {
	r.meta = true
	resp, err := c.get(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(v); err != nil {
		return nil, fmt.Errorf("the answer is not the JSON expected: %v", err)
	}
	return resp.Request.URL, nil
}

// getBytes returns the body at r.url, up to 16 MiB.
func (c *client) getBytes(ctx context.Context, r request) ([]byte, error) {
	r.meta = true
	resp, err := c.get(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, 16<<20))
}

// download writes the body at r.url into a new file in dir, returning its
// path.
func (c *client) download(ctx context.Context, r request, dir string) (string, error) {
	resp, err := c.get(ctx, r)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	f, err := os.CreateTemp(dir, ".download-*.zip")
	if err != nil {
		return "", err
	}
	var body io.Reader = resp.Body
	if r.max > 0 {
		body = io.LimitReader(body, r.max+1)
	}
	n, err := io.Copy(f, body)
	switch {
	case err != nil:
	case r.max > 0 && n > r.max:
		err = fmt.Errorf("the download is larger than %d MiB", r.max>>20)
	case resp.ContentLength >= 0 && n != resp.ContentLength:
		err = fmt.Errorf("the download was cut short after %d of %d bytes", n, resp.ContentLength)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// resolve reads ref, an http(s) URL or one relative to base.
func resolve(base *url.URL, ref string) (*url.URL, error) {
	u, err := base.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("invalid URL %q: %v", ref, err)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, fmt.Errorf("URL %q is not http(s)", ref)
	}
	return u, nil
}
