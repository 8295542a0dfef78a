package install

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"strings"
)

// Pulumi's release locations, tried in order when a plugin names none.
const (
	defaultGitHub = "github://api.github.com/pulumi"
	defaultServer = "https://get.pulumi.com/releases/plugins"
)

// Asset returns the file name of the release tarball of s for this OS and
// architecture: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz.
func (s Spec) Asset() string {
	return fmt.Sprintf("pulumi-%s-%s-v%s-%s-%s.tar.gz", s.Kind, s.Name, s.Version, runtime.GOOS, runtime.GOARCH)
}

// Override replaces the download URLs that match, as Pulumi's
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES does: the regexp is matched against
// the URL a plugin would be downloaded from (for Pulumi's own releases,
// github://api.github.com/pulumi/pulumi-<name>), and $1 or ${group} in the
// replacement are the regexp's groups.
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
		if !ok || re == "" || u == "" || strings.Contains(u, "=") {
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

// sources returns the URLs to try for s, in order: its own, or Pulumi's
// GitHub releases then get.pulumi.com, overridden as the overrides say.
func (in *Installer) sources(s Spec) []string {
	if s.Server != "" {
		return []string{in.override(s.Server)}
	}
	github := defaultGitHub + "/pulumi-" + s.Name
	if u := in.override(github); u != github {
		return []string{u}
	}
	return []string{github, in.override(defaultServer)}
}

// override returns the URL the first override matching u replaces it with,
// or u.
func (in *Installer) override(u string) string {
	for _, o := range in.Overrides {
		m := o.Match.FindStringSubmatch(u)
		if m == nil {
			continue
		}
		out := o.URL
		for i, name := range o.Match.SubexpNames() {
			out = strings.ReplaceAll(out, fmt.Sprintf("$%d", i), m[i])
			if i > 0 && name != "" {
				out = strings.ReplaceAll(out, "${"+name+"}", m[i])
			}
		}
		return out
	}
	return u
}

// open starts the download of s's tarball from the server named by src,
// returning the body, its length (-1 when unknown) and the URL fetched (at
// the end of its redirects).
func (in *Installer) open(ctx context.Context, s Spec, src string) (io.ReadCloser, int64, string, error) {
	u, err := url.Parse(src)
	if err != nil {
		return nil, 0, src, fmt.Errorf("plugin download URL %q: %w", src, err)
	}
	switch u.Scheme {
	case "http", "https":
		r := strings.NewReplacer("${NAME}", s.Name, "${VERSION}", s.Version, "${OS}", runtime.GOOS, "${ARCH}", runtime.GOARCH)
		full := strings.TrimSuffix(r.Replace(src), "/") + "/" + s.Asset()
		return in.get(ctx, full, "")
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
	body, _, _, err := in.get(ctx, release, "application/json")
	if err != nil {
		return nil, 0, release, in.tokenHint(u.Host, err)
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
			return in.get(ctx, a.URL, "application/octet-stream")
		}
	}
	return nil, 0, release, fmt.Errorf("the GitHub release %s has no asset %s", release, s.Asset())
}

// get starts a GET of u, returning the body, its length (-1 when unknown)
// and the URL answered, at the end of the redirects. The GitHub token goes
// only to the hosts trusted with it (see trusts).
func (in *Installer) get(ctx context.Context, u, accept string) (io.ReadCloser, int64, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, u, err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if in.GitHubToken != "" && in.trusts(req.URL) {
		req.Header.Set("Authorization", "token "+in.GitHubToken)
	}
	resp, err := in.client().Do(req)
	if err != nil {
		return nil, 0, u, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, 0, u, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return resp.Body, resp.ContentLength, resp.Request.URL.String(), nil
}
