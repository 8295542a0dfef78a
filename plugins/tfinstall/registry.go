package tfinstall

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
	"github.com/opentofu/svchost/disco"
)

// registry installs providers from their own host's provider registry,
// OpenTofu's "direct" method:
//
//	GET https://<host>/.well-known/terraform.json        {"providers.v1":"/v1/providers/"}
//	GET <providers.v1><namespace>/<type>/versions
//	GET <providers.v1><namespace>/<type>/<version>/download/<os>/<arch>
//
// The download answer names the zip, its SHA-256, the SHA256SUMS file,
// its detached signature and the keys that may have signed it.
type registry struct {
	host    tfaddr.Host // the provider's hostname
	client  *client
	retries int
	log     func(string, ...any)
	api     *url.URL // providers.v1, once discovered
}

func (r *registry) String() string {
	if r.api != nil {
		return "registry " + r.api.String()
	}
	return "registry https://" + r.host.String() + "/"
}

func (r *registry) remote() bool { return true }

// discover finds the host's providers.v1 base URL.
func (r *registry) discover(ctx context.Context) (*url.URL, error) {
	if r.api == nil {
		api, err := r.client.discover(ctx, r.host, "providers.v1")
		if err != nil {
			return nil, err
		}
		r.api = api
	}
	return r.api, nil
}

// discover finds the base URL of a host's service (providers.v1,
// modules.v1) with OpenTofu's service discovery: from the CLI
// configuration's host block for it, else from its discovery document,
// asked for with the host's token.
func (c *client) discover(ctx context.Context, host tfaddr.Host, service string) (*url.URL, error) {
	doc := "https://" + host.String() + "/.well-known/terraform.json"
	h, err := c.disco.Discover(ctx, host)
	if err != nil {
		// The library says "failed to request discovery document: …" of
		// a request that got no answer and of an answer it refused; the
		// request's own error says which, and a refusal's status says
		// whose token to set.
		var unanswered disco.ErrServiceDiscoveryNetworkRequest
		if errors.As(err, &unanswered) {
			err = unanswered.Unwrap()
		}
		for _, status := range []string{"401 Unauthorized", "403 Forbidden"} {
			if strings.HasSuffix(err.Error(), status) {
				creds, _ := c.credentials.ForHost(ctx, host)
				err = refused(status, host, creds != nil)
			}
		}
		return nil, fmt.Errorf("%s: %v", doc, err)
	}
	api, err := h.ServiceURL(service)
	var absent *disco.ErrServiceNotProvided
	if errors.As(err, &absent) {
		what := map[string]string{"providers.v1": "a provider registry", "modules.v1": "a module registry"}[service]
		return nil, fmt.Errorf("%s: %s is not %s (it offers no %s service)", doc, host.ForDisplay(), what, service)
	}
	if err != nil {
		return nil, fmt.Errorf("the %s service of %s: %v", service, host.ForDisplay(), err)
	}
	if !strings.HasSuffix(api.Path, "/") {
		api.Path += "/"
	}
	return api, nil
}

// protocolsOK reports whether a provider speaking protocols (e.g. "5.0",
// "6") speaks one Cairn does: major version 5 or 6.
func protocolsOK(protocols []string) bool {
	for _, p := range protocols {
		if major, _, _ := strings.Cut(p, "."); major == "5" || major == "6" {
			return true
		}
	}
	return false
}

func (r *registry) versions(ctx context.Context, p Provider) ([]Version, error) {
	api, err := r.discover(ctx)
	if err != nil {
		return nil, err
	}
	u := api.JoinPath(p.Namespace, p.Type, "versions")
	var doc struct {
		Versions []struct {
			Version   string   `json:"version"`
			Protocols []string `json:"protocols"`
			Platforms []struct {
				OS   string `json:"os"`
				Arch string `json:"arch"`
			} `json:"platforms"`
		} `json:"versions"`
		Warnings []string `json:"warnings"`
	}
	if _, err := r.client.getJSON(ctx, request{url: u, auth: r.host, retries: r.retries}, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	for _, w := range doc.Warnings {
		r.log("the registry warns about %s: %s", p, w)
	}
	var vs []Version
	for _, entry := range doc.Versions {
		v, err := tfaddr.ParseVersion(entry.Version)
		if err != nil || len(entry.Protocols) > 0 && !protocolsOK(entry.Protocols) {
			continue
		}
		ours := len(entry.Platforms) == 0
		for _, pl := range entry.Platforms {
			ours = ours || pl.OS+"_"+pl.Arch == platform
		}
		if ours {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 && len(doc.Versions) > 0 {
		return nil, fmt.Errorf("%s: %d versions, none for %s with plugin protocol 5 or 6: %w", u, len(doc.Versions), platform, errNotFound)
	}
	return vs, nil
}

// download is the registry's answer for one version and platform.
type download struct {
	Protocols           []string `json:"protocols"`
	OS                  string   `json:"os"`
	Arch                string   `json:"arch"`
	Filename            string   `json:"filename"`
	DownloadURL         string   `json:"download_url"`
	SHASumsURL          string   `json:"shasums_url"`
	SHASumsSignatureURL string   `json:"shasums_signature_url"`
	SHASum              string   `json:"shasum"`
	SigningKeys         struct {
		GPGPublicKeys []struct {
			KeyID      string `json:"key_id"`
			ASCIIArmor string `json:"ascii_armor"`
		} `json:"gpg_public_keys"`
	} `json:"signing_keys"`
}

func (r *registry) fetch(ctx context.Context, p Provider, v Version, tmp string) (*fetched, error) {
	api, err := r.discover(ctx)
	if err != nil {
		return nil, err
	}
	goos, goarch, _ := strings.Cut(platform, "_")
	u := api.JoinPath(p.Namespace, p.Type, v.String(), "download", goos, goarch)
	var d download
	from, err := r.client.getJSON(ctx, request{url: u, auth: r.host, retries: r.retries}, &d)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: the registry's answer for %s %s is unusable: %s", u, p, v, fmt.Sprintf(format, args...))
	}
	switch {
	case d.OS != goos || d.Arch != goarch:
		return nil, bad("it is for %s_%s, not %s", d.OS, d.Arch, platform)
	case !protocolsOK(d.Protocols):
		return nil, bad("the provider speaks plugin protocols %v and Cairn speaks 5 and 6; choose another version", d.Protocols)
	case d.Filename == "" || strings.ContainsAny(d.Filename, "/\\"):
		return nil, bad("the filename %q is not a file name", d.Filename)
	}
	sum, err := hex.DecodeString(d.SHASum)
	if err != nil || len(sum) != 32 {
		return nil, bad("the shasum %q is not a SHA-256 in hex", d.SHASum)
	}
	var zipURL, sumsURL, sigURL *url.URL
	for _, x := range []struct {
		into **url.URL
		ref  string
	}{{&zipURL, d.DownloadURL}, {&sumsURL, d.SHASumsURL}, {&sigURL, d.SHASumsSignatureURL}} {
		if *x.into, err = resolve(from, x.ref); err != nil {
			return nil, bad("%v", err)
		}
	}
	// Archives, checksums and signatures often live on another host (a
	// release site): no credentials go with them.
	sums, err := r.client.getBytes(ctx, request{url: sumsURL, retries: r.retries})
	if err != nil {
		return nil, fmt.Errorf("downloading the checksums of %s %s from %s: %v", p, v, sumsURL, err)
	}
	listed := ""
	for _, line := range strings.Split(string(sums), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == d.Filename {
			listed = f[0]
		}
	}
	if !strings.EqualFold(listed, d.SHASum) {
		return nil, fmt.Errorf("%s: the checksum of %s there (%q) is not the one the registry gives (%s): the package was not installed", sumsURL, d.Filename, listed, d.SHASum)
	}
	auth, trusted, err := r.authenticate(ctx, p, v, d, sums, sigURL)
	if err != nil {
		return nil, err
	}
	zip, err := r.client.download(ctx, request{url: zipURL, retries: r.retries}, tmp)
	if err != nil {
		return nil, fmt.Errorf("downloading %s %s from %s: %v", p, v, zipURL, err)
	}
	f := &fetched{zip: zip, want: []string{schemeZip + strings.ToLower(d.SHASum)}, auth: auth}
	if trusted {
		f.record = sumsHashes(sums)
	}
	return f, nil
}

// authenticate checks the signature of the checksums when the registry
// lists signing keys, as OpenTofu does. Without keys it goes ahead only
// for OpenTofu's own registry, which serves some providers unsigned
// (unless OPENTOFU_ENFORCE_GPG_VALIDATION=true). It says how the package
// was authenticated and whether the checksums of every platform may be
// recorded in the lock file: only signed ones, as in Terraform, since
// nothing on this machine checks the other platforms' packages, and the
// lock file vouches for them on every machine that shares it.
func (r *registry) authenticate(ctx context.Context, p Provider, v Version, d download, sums []byte, sigURL *url.URL) (string, bool, error) {
	var keys []string
	for _, k := range d.SigningKeys.GPGPublicKeys {
		keys = append(keys, k.ASCIIArmor)
	}
	if len(keys) == 0 {
		if p.Hostname != tfaddr.DefaultHost || os.Getenv("OPENTOFU_ENFORCE_GPG_VALIDATION") == "true" {
			return "", false, fmt.Errorf("%s %s: the registry lists no key that signed it, and only packages from %s may go unsigned: it was not installed", p, v, tfaddr.DefaultHost)
		}
		r.log("%s %s: the registry lists no signing keys; relying on its TLS certificate, as OpenTofu does", p, v)
		return "checksum given by the registry, which lists no signing keys", false, nil
	}
	sig, err := r.client.getBytes(ctx, request{url: sigURL, retries: r.retries})
	if err != nil {
		return "", false, fmt.Errorf("downloading the signature of the checksums of %s %s from %s: %v", p, v, sigURL, err)
	}
	keyID, err := checkSignature(sums, sig, keys, r.log)
	if err != nil {
		return "", false, fmt.Errorf("%s %s: %v: it was not installed", p, v, err)
	}
	return "signed by key " + keyID, true, nil
}

// sumsHashes returns the zh: hashes of a SHA256SUMS file, none if it does
// not look like one.
func sumsHashes(sums []byte) []string {
	var hashes []string
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 || len(f[0]) != 64 {
			return nil
		}
		if _, err := hex.DecodeString(f[0]); err != nil {
			return nil
		}
		hashes = append(hashes, schemeZip+strings.ToLower(f[0]))
	}
	return hashes
}
