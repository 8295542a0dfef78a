package install

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cairn-iac/cairn/internal/httpauth"
)

// gitHubAPI is GitHub's API host, always trusted with the GitHub token.
const gitHubAPI = "api.github.com"

// trusts reports whether the GitHub token may go to u: over https, to
// api.github.com or a host of GitHubHosts (a host without a port is
// trusted on any port).
func (in *Installer) trusts(u *url.URL) bool {
	if u.Scheme != "https" {
		return false
	}
	for _, h := range append([]string{gitHubAPI}, in.GitHubHosts...) {
		if strings.EqualFold(h, u.Host) || strings.EqualFold(h, u.Hostname()) {
			return true
		}
	}
	return false
}

// client is in.Client (or Go's default) never forwarding the GitHub token
// on a redirect to a URL not trusted with it: a release asset's download
// is redirected to a storage host, which must not see it.
func (in *Installer) client() *http.Client {
	return httpauth.Guard(in.Client, func(req *http.Request, _ []*http.Request) bool { return in.trusts(req.URL) })
}

// tokenHint adds to the error of a GitHub API call to host that the GitHub
// token was not sent there, when there is one and it was not.
func (in *Installer) tokenHint(host string, err error) error {
	if in.GitHubToken == "" || in.trusts(&url.URL{Scheme: "https", Host: host}) {
		return err
	}
	return fmt.Errorf("%w (GITHUB_TOKEN was not sent to %s, which is not GitHub's API host; "+
		"if it is your GitHub Enterprise server, add it to CAIRN_GITHUB_HOSTS)", err, host)
}
