package tfinstall

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// moduleSource is a module call's source address, read as OpenTofu
// reads it: a local path, a module registry address or a remote package.
type moduleSource struct {
	local    bool
	registry *tfaddr.Module // a registry address, with its subdirectory
	// pkg is a remote package: a go-getter address with its getter
	// ("git::https://…", "https://…/x.zip"), detected forms rewritten.
	pkg    string
	subdir string // the folder within the package
}

// String is the source as OpenTofu records it in its module manifest:
// registry addresses with their hostname, remote packages as their getter
// fetches them, with the subdirectory before the query.
func (s moduleSource) String() string {
	if s.registry != nil {
		return s.registry.String()
	}
	if s.subdir == "" {
		return s.pkg
	}
	base, query, hasQuery := strings.Cut(s.pkg, "?")
	if hasQuery {
		return base + "//" + s.subdir + "?" + query
	}
	return base + "//" + s.subdir
}

// parseModuleSource reads a source address: a local path (./, ../), a
// registry address, or a remote package in one of the forms go-getter
// reads that Cairn fetches: http(s) URLs, git:: addresses (and git@host:
// ones) and github.com/org/repo. As in OpenTofu, an address is a registry
// address when it reads as one, and a remote package otherwise.
func parseModuleSource(raw string) (moduleSource, error) {
	if strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") {
		return moduleSource{local: true}, nil
	}
	if r, err := tfaddr.ParseModule(raw); err == nil {
		return moduleSource{registry: &r, subdir: r.Subdir}, nil
	}
	pkg, subdir := splitSubdir(raw)
	if !inPackage(subdir) {
		return moduleSource{}, fmt.Errorf("the subdirectory %q of %q is not within the package", subdir, raw)
	}
	remote, err := detectPackage(pkg)
	if err != nil {
		return moduleSource{}, err
	}
	// Detection may find a subdirectory too (github.com/org/repo/dir).
	src := moduleSource{}
	var more string
	src.pkg, more = splitSubdir(remote)
	if subdir = path.Join(more, subdir); subdir != "" {
		if !inPackage(subdir) {
			return moduleSource{}, fmt.Errorf("the subdirectory %q of %q is not within the package", subdir, raw)
		}
		src.subdir = path.Clean(subdir)
	}
	return src, nil
}

// inPackage reports whether a package's subdirectory stays within it.
func inPackage(subdir string) bool {
	clean := path.Clean(subdir)
	return subdir == "" || clean != ".." && !strings.HasPrefix(clean, "../") && !path.IsAbs(clean)
}

// splitSubdir splits the //subdir off an address: the first // after the
// scheme and before the query, which stays with the package.
func splitSubdir(src string) (string, string) {
	stop := len(src)
	if i := strings.Index(src, "?"); i >= 0 {
		stop = i
	}
	offset := 0
	if i := strings.Index(src[:stop], "://"); i >= 0 {
		offset = i + 3
	}
	i := strings.Index(src[offset:stop], "//")
	if i < 0 {
		return src, ""
	}
	i += offset
	pkg, subdir := src[:i], src[i+2:]
	if q := strings.Index(subdir, "?"); q >= 0 {
		pkg += subdir[q:]
		subdir = subdir[:q]
	}
	return pkg, subdir
}

var scpLike = regexp.MustCompile(`^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+:[^/]`)

// detectPackage rewrites a remote package address into the form its
// getter fetches, as go-getter's detectors do, refusing the getters Cairn
// does not have.
func detectPackage(s string) (string, error) {
	if getter, rest, ok := strings.Cut(s, "::"); ok && !strings.Contains(getter, "/") {
		switch getter {
		case "git":
			return s, nil
		case "http", "https":
			if u, err := url.Parse(rest); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
				return "", fmt.Errorf("%q: the %s getter fetches http(s) URLs", s, getter)
			}
			return rest, nil
		case "s3", "gcs", "hg", "file":
			return "", fmt.Errorf("%q: Cairn fetches modules over http(s), from git and from module registries, not with the %s getter; put the module in a registry, a git repository or an archive served over https", s, getter)
		default:
			return "", fmt.Errorf("%q: there is no getter %q; module packages come from http(s) URLs and git:: addresses", s, getter)
		}
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		switch u.Scheme {
		case "http", "https":
			return s, nil
		case "ssh", "git":
			return "git::" + s, nil
		}
		return "", fmt.Errorf("%q: Cairn fetches modules over http(s), from git and from module registries, not from %s URLs", s, u.Scheme)
	}
	if scpLike.MatchString(s) {
		return "git::ssh://" + strings.Replace(s, ":", "/", 1), nil
	}
	host, _, _ := strings.Cut(s, "/")
	switch {
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "file:"):
		return "", fmt.Errorf("%q: a local module's source starts with ./ or ../ (relative to the calling module's folder)", s)
	case host == "github.com":
		return github(s)
	case host == "bitbucket.org":
		return "", fmt.Errorf("%q: write Bitbucket repositories as git::https://bitbucket.org/… addresses", s)
	case strings.Contains(host, "amazonaws.com") || host == "www.googleapis.com" || host == "storage.googleapis.com":
		return "", fmt.Errorf("%q: Cairn fetches modules over http(s), from git and from module registries, not from S3 or GCS buckets", s)
	}
	return "", fmt.Errorf("%q is not a module source Cairn can read: write a local path (./modules/web), a registry address (namespace/name/system), a git:: address or an http(s) URL", s)
}

// github rewrites github.com/org/repo[/more][?query] as a git:: address
// of the repository over https.
func github(s string) (string, error) {
	base, query, _ := strings.Cut(s, "?")
	parts := strings.Split(base, "/")
	if len(parts) < 3 || parts[1] == "" || parts[2] == "" {
		return "", fmt.Errorf("%q: a GitHub source is github.com/organization/repository", s)
	}
	repo := strings.Join(parts[:3], "/")
	if !strings.HasSuffix(repo, ".git") {
		repo += ".git"
	}
	out := "git::https://" + repo
	if len(parts) > 3 {
		out += "//" + strings.Join(parts[3:], "/")
	}
	if query != "" {
		out += "?" + query
	}
	return out, nil
}
