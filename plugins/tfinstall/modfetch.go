package tfinstall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/childenv"
)

// fetch puts the remote package pkg (a moduleSource's) into dir, a new
// folder, and returns the subdirectory that the address it was redirected
// to names, if any: git:: addresses are cloned with the git program,
// http(s) URLs of archives downloaded and unpacked, and other http(s)
// URLs asked where the package is (X-Terraform-Get), as go-getter does.
func (m *Modules) fetch(ctx context.Context, pkg, dir string, hops int) (string, error) {
	if repo, ok := strings.CutPrefix(pkg, "git::"); ok {
		return "", gitClone(ctx, repo, dir)
	}
	u, err := url.Parse(pkg)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%q is not an http(s) URL", pkg)
	}
	if format := archiveFormat(u); format != "" {
		return "", m.unpack(ctx, u, format, dir)
	}
	if hops > 3 {
		return "", fmt.Errorf("%s: too many X-Terraform-Get redirections", u)
	}
	loc, err := m.terraformGet(ctx, u)
	if err != nil {
		return "", err
	}
	next, subdir := splitSubdir(loc)
	if next, err = detectPackage(next); err != nil {
		return "", fmt.Errorf("%s sends to %v", u, err)
	}
	next, more := splitSubdir(next)
	sub, err := m.fetch(ctx, next, dir, hops+1)
	return path.Join(more, sub, subdir), err
}

// archiveFormat returns the archive format of a package URL, from its
// archive= parameter (which it removes) or its extension; "" when it is
// not an archive.
func archiveFormat(u *url.URL) string {
	q := u.Query()
	if f := q.Get("archive"); f != "" {
		q.Del("archive")
		u.RawQuery = q.Encode()
		return f
	}
	for _, f := range archiveFormats {
		if strings.HasSuffix(u.Path, "."+f) {
			return f
		}
	}
	return ""
}

// unpack downloads the archive at u and unpacks it into dir.
func (m *Modules) unpack(ctx context.Context, u *url.URL, format, dir string) error {
	if !slices.Contains(archiveFormats, format) {
		return fmt.Errorf("%s: archives of format %q are not unpacked; use one of %s", u, format, strings.Join(archiveFormats, ", "))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	file, err := m.client.download(ctx, request{url: u, retries: m.retries, max: maxUnpacked}, filepath.Dir(dir))
	if err != nil {
		return fmt.Errorf("downloading %s: %v", u, err)
	}
	defer os.Remove(file)
	if err := extract(file, format, dir, true); err != nil {
		return fmt.Errorf("%s: %v", u, err)
	}
	return nil
}

var terraformGetMeta = regexp.MustCompile(`(?i)<meta\s+name="terraform-get"\s+content="([^"]*)"`)

// terraformGet asks u where a package is, as go-getter does: u with
// terraform-get=1 answers with an X-Terraform-Get header, or a page with
// a terraform-get meta tag. A relative answer is resolved against u.
func (m *Modules) terraformGet(ctx context.Context, u *url.URL) (string, error) {
	ask := *u
	q := ask.Query()
	q.Set("terraform-get", "1")
	ask.RawQuery = q.Encode()
	resp, err := m.client.get(ctx, request{url: &ask, meta: true, retries: m.retries})
	if err != nil {
		return "", fmt.Errorf("%s: %v", u, err)
	}
	defer resp.Body.Close()
	loc := resp.Header.Get("X-Terraform-Get")
	if loc == "" {
		page, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if match := terraformGetMeta.FindSubmatch(page); match != nil {
			loc = string(match[1])
		}
	}
	if loc == "" {
		return "", fmt.Errorf("%s is neither an archive (.zip, .tar.gz, … or ?archive=) nor answers where the module is (X-Terraform-Get)", u)
	}
	return relativeLocation(resp.Request.URL, loc)
}

// gitClone clones the repository at addr (a URL the git program reads,
// with the ref= and depth= parameters of go-getter) into dir.
func gitClone(ctx context.Context, addr, dir string) error {
	repo, query, _ := strings.Cut(addr, "?")
	params, err := url.ParseQuery(query)
	if err != nil {
		return fmt.Errorf("git::%s: %v", addr, err)
	}
	ref, depth := params.Get("ref"), params.Get("depth")
	params.Del("ref")
	params.Del("depth")
	if strings.HasPrefix(ref, "-") {
		return fmt.Errorf("git::%s: ref=%s is not a branch, tag or commit", addr, ref)
	}
	if params.Has("sshkey") {
		return fmt.Errorf("git::%s: sshkey= is not supported; give git the key through an SSH agent or ~/.ssh/config", addr)
	}
	if len(params) > 0 {
		repo += "?" + params.Encode()
	}
	args := []string{"clone", "--quiet"}
	if depth != "" {
		if n, err := strconv.Atoi(depth); err != nil || n < 1 {
			return fmt.Errorf("git::%s: depth=%s is not a positive number", addr, depth)
		}
		args = append(args, "--depth", depth)
		if ref != "" {
			args = append(args, "--branch", ref)
		}
	}
	if err := git(ctx, "", append(args, "--", repo, dir)...); err != nil {
		return err
	}
	if ref != "" && depth == "" {
		return git(ctx, dir, "checkout", "--quiet", ref)
	}
	return nil
}

// git runs the git program in dir, without prompts.
func git(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(childenv.Environ(), "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return errors.New("the git program is not on PATH; Cairn runs it to fetch git:: modules")
		}
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
