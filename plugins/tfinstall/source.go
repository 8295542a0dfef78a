package tfinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// source is a place providers are installed from: a registry, a network
// mirror or a folder.
type source interface {
	// String names the place in messages.
	String() string
	// versions lists the versions of p the source has for this platform;
	// errNotFound when it has none.
	versions(ctx context.Context, p Provider) ([]Version, error)
	// fetch finds the package of p at version v for this platform,
	// downloading it into tmp when it must; errNotFound when it has none.
	fetch(ctx context.Context, p Provider, v Version, tmp string) (*fetched, error)
	// remote reports whether the source is reached over the network.
	remote() bool
}

// fetched is a package a source found: an unpacked folder, used where it
// is, or a zip to unpack.
type fetched struct {
	dir string
	zip string
	// want are hashes the source vouches for; the package must match one.
	want []string
	// record are hashes to record in the lock file besides the package's
	// own: a registry's signed checksums of every platform's zip.
	record []string
	// auth says how the package was authenticated, for the log.
	auth string
}

// platform is the os_arch packages are chosen for.
var platform = runtime.GOOS + "_" + runtime.GOARCH

// sources returns where p is installed from, in order: the methods of the
// CLI configuration's provider_installation block that cover p, or, when
// there is none, the implied local mirrors that hold p, else its registry.
// A filesystem mirror whose folder does not exist is left out, and said
// so, with the place in the CLI configuration that names it.
func (in *installer) sources() []source {
	retries := 2
	if n, err := strconv.Atoi(os.Getenv("TF_PROVIDER_DOWNLOAD_RETRY")); err == nil && n >= 0 {
		retries = n
	}
	if in.cfg.installation == nil {
		var mirrors []source
		for _, dir := range in.impliedMirrors() {
			m := &fsMirror{dir: dir, what: "implied filesystem mirror"}
			if m.has(in.p) {
				mirrors = append(mirrors, m)
			}
		}
		if len(mirrors) > 0 {
			return mirrors
		}
		return []source{&registry{host: in.p.Hostname, client: in.client, retries: retries, log: in.log}}
	}
	var srcs []source
	covered := false
	for _, m := range in.cfg.installation.methods {
		if !m.covers(in.p) {
			continue
		}
		covered = true
		r := retries
		if m.retries >= 0 {
			r = m.retries
		}
		switch m.kind {
		case "direct":
			srcs = append(srcs, &registry{host: in.p.Hostname, client: in.client, retries: r, log: in.log})
		case "filesystem_mirror":
			mirror := &fsMirror{dir: m.location, what: "filesystem mirror"}
			if _, err := os.Stat(m.location); errors.Is(err, fs.ErrNotExist) {
				abs, _ := filepath.Abs(m.location)
				in.log("the filesystem mirror %s does not exist (the CLI configuration names it at %s): not searching it", abs, m.at)
				in.note(mirror, "the folder %s does not exist (the CLI configuration names it at %s)", abs, m.at)
				continue
			}
			srcs = append(srcs, mirror)
		case "network_mirror":
			srcs = append(srcs, &netMirror{base: m.location, client: in.client, retries: r})
		}
	}
	if !covered {
		in.looked = append(in.looked, fmt.Sprintf("the CLI configuration's provider_installation block (%s): no method includes %s", in.cfg.installation.at, in.p))
	}
	return srcs
}

// impliedMirrors are the folders OpenTofu and Terraform search for
// providers when the CLI configuration has no provider_installation
// block: terraform.d/plugins in the project, then the user's and the
// system's plugin folders.
func (in *installer) impliedMirrors() []string {
	var dirs []string
	if in.opts.ProjectDir != "" {
		dirs = append(dirs, filepath.Join(in.opts.ProjectDir, "terraform.d", "plugins"))
	}
	home, err := os.UserHomeDir()
	if err == nil {
		dirs = append(dirs, filepath.Join(home, ".terraform.d", "plugins"))
	}
	dataHome := os.Getenv("XDG_DATA_HOME")
	if dataHome == "" && err == nil {
		dataHome = filepath.Join(home, ".local", "share")
	}
	dataDirs := filepath.SplitList(os.Getenv("XDG_DATA_DIRS"))
	if len(dataDirs) == 0 {
		dataDirs = []string{"/usr/local/share", "/usr/share"}
	}
	for _, d := range append([]string{dataHome}, dataDirs...) {
		if d != "" {
			dirs = append(dirs, filepath.Join(d, "opentofu", "plugins"), filepath.Join(d, "terraform", "plugins"))
		}
	}
	var existing []string
	for _, d := range dirs {
		if isDir(d) && filepath.Clean(d) != filepath.Clean(in.cfg.pluginCacheDir) {
			existing = append(existing, d)
		}
	}
	return existing
}

// packageDir is where a package of p at v for this platform lives in a
// folder of the unpacked layout.
func packageDir(root string, p Provider, v Version) string {
	return filepath.Join(root, p.Hostname.ForDisplay(), p.Namespace, p.Type, v.String(), platform)
}
