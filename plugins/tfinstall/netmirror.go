package tfinstall

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// netMirror is a provider network mirror: static JSON indexes and zips
// under an https base URL, with no service discovery.
//
//	GET <base><host>/<namespace>/<type>/index.json    {"versions":{"2.0.0":{}}}
//	GET <base><host>/<namespace>/<type>/<version>.json
//	    {"archives":{"linux_amd64":{"url":"…zip","hashes":["h1:…"]}}}
//
// The host's credentials go with the JSON requests, never with archive
// downloads.
type netMirror struct {
	base    string
	client  *client
	retries int
}

func (m *netMirror) String() string { return "network mirror " + m.base }

func (m *netMirror) remote() bool { return true }

func (m *netMirror) url(p Provider, file string) (*url.URL, error) {
	base, err := url.Parse(strings.TrimSuffix(m.base, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("invalid network mirror URL %q: %v", m.base, err)
	}
	return base.JoinPath(p.Hostname.String(), p.Namespace, p.Type, file), nil
}

func (m *netMirror) versions(ctx context.Context, p Provider) ([]Version, error) {
	u, err := m.url(p, "index.json")
	if err != nil {
		return nil, err
	}
	var index struct {
		Versions map[string]struct{} `json:"versions"`
	}
	if _, err := m.client.getJSON(ctx, request{url: u, auth: urlHost(u), retries: m.retries}, &index); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	var vs []Version
	for s := range index.Versions {
		if v, err := tfaddr.ParseVersion(s); err == nil {
			vs = append(vs, v)
		}
	}
	return vs, nil
}

func (m *netMirror) fetch(ctx context.Context, p Provider, v Version, tmp string) (*fetched, error) {
	u, err := m.url(p, v.String()+".json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Archives map[string]struct {
			URL    string   `json:"url"`
			Hashes []string `json:"hashes"`
		} `json:"archives"`
	}
	from, err := m.client.getJSON(ctx, request{url: u, auth: urlHost(u), retries: m.retries}, &doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	archive, ok := doc.Archives[platform]
	if !ok {
		return nil, fmt.Errorf("%s lists no archive for %s: %w", u, platform, errNotFound)
	}
	zipURL, err := resolve(from, archive.URL)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", u, err)
	}
	zip, err := m.client.download(ctx, request{url: zipURL, retries: m.retries}, tmp)
	if err != nil {
		return nil, fmt.Errorf("downloading %s: %v", zipURL, err)
	}
	auth := "from " + m.String() + ", which lists no checksums: unverified"
	if len(archive.Hashes) > 0 {
		auth = "checksum listed by " + m.String()
	}
	return &fetched{zip: zip, want: archive.Hashes, auth: auth}, nil
}
