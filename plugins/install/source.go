package install

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"strings"
)

// Pulumi's release locations, tried in order when a plugin names none.
const (
	defaultGitHub = "github://api.github.com/pulumi"
	defaultServer = "https://get.pulumi.com/releases/plugins/"
)

// Asset returns the file name of the release tarball of s for this OS and
// architecture: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz.
func (s Spec) Asset() string {
	return fmt.Sprintf("pulumi-%s-%s-v%s-%s-%s.tar.gz", s.Kind, s.Name, s.Version, runtime.GOOS, runtime.GOARCH)
}

// Override replaces the download URL of the plugins whose names match.
type Override struct {
	Match *regexp.Regexp
	URL   string
}

// ParseOverrides reads a comma-separated list of regexp=URL pairs, the
// format of PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES.
func ParseOverrides(s string) ([]Override, error) {
	var out []Override
	for _, pair := range strings.Split(s, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		re, u, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, fmt.Errorf("plugin download URL override %q is not regexp=URL", pair)
		}
		m, err := regexp.Compile(re)
		if err != nil {
			return nil, fmt.Errorf("plugin download URL override %q: %w", pair, err)
		}
		out = append(out, Override{Match: m, URL: u})
	}
	return out, nil
}

// sources returns the URLs to try for s, in order.
func (in *Installer) sources(s Spec) []string {
	for _, o := range in.Overrides {
		if o.Match.MatchString(s.Name) {
			return []string{o.URL}
		}
	}
	if s.Server != "" {
		return []string{s.Server}
	}
	return []string{defaultGitHub, defaultServer}
}

// open starts the download of s's tarball from the server named by src,
// returning the body, its length (-1 when unknown) and the URL fetched.
func (in *Installer) open(ctx context.Context, s Spec, src string) (io.ReadCloser, int64, string, error) {
	u, err := url.Parse(src)
	if err != nil {
		return nil, 0, src, fmt.Errorf("plugin download URL %q: %w", src, err)
	}
	switch u.Scheme {
	case "http", "https":
		r := strings.NewReplacer("${VERSION}", s.Version, "${OS}", runtime.GOOS, "${ARCH}", runtime.GOARCH)
		full := strings.TrimSuffix(r.Replace(src), "/") + "/" + s.Asset()
		body, n, err := in.get(ctx, full, "")
		return body, n, full, err
	case "github":
		return in.openGitHub(ctx, s, u)
	}
	return nil, 0, src, fmt.Errorf("plugin download URL %q: the scheme must be http, https or github", src)
}

// openGitHub downloads s's tarball from a GitHub release:
// github://<api-host>/<owner>[/<repo>], as Pulumi reads it.
func (in *Installer) openGitHub(ctx context.Context, s Spec, u *url.URL) (io.ReadCloser, int64, string, error) {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if parts[0] == "" || len(parts) > 2 {
		return nil, 0, u.String(), fmt.Errorf("plugin download URL %q: a GitHub URL is github://<api-host>/<owner>[/<repo>]", u)
	}
	repo := "pulumi-" + s.Name
	if len(parts) == 2 {
		repo = parts[1]
	}
	release := fmt.Sprintf("https://%s/repos/%s/%s/releases/tags/v%s", u.Host, parts[0], repo, s.Version)
	body, _, err := in.get(ctx, release, "application/json")
	if err != nil {
		return nil, 0, release, err
	}
	defer body.Close()
	var rel struct {
		Assets []struct {
			Name string `json:"name"`
			URL  string `json:"url"`
		} `json:"assets"`
	}
	if err := json.NewDecoder(body).Decode(&rel); err != nil {
		return nil, 0, release, fmt.Errorf("reading the GitHub release %s: %w", release, err)
	}
	for _, a := range rel.Assets {
		if a.Name == s.Asset() {
			b, n, err := in.get(ctx, a.URL, "application/octet-stream")
			return b, n, a.URL, err
		}
	}
	return nil, 0, release, fmt.Errorf("the GitHub release %s has no asset %s", release, s.Asset())
}

// get starts a GET of u; GitHub hosts get GITHUB_TOKEN, when set.
func (in *Installer) get(ctx context.Context, u, accept string) (io.ReadCloser, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
		if tok := os.Getenv("GITHUB_TOKEN"); tok != "" {
			req.Header.Set("Authorization", "token "+tok)
		}
	}
	client := in.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, 0, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return resp.Body, resp.ContentLength, nil
}
