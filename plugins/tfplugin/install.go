package tfplugin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
)

// Installer finds (or installs) the binary of a Terraform provider.
type Installer interface {
	// Install returns the executable of the newest version of the provider
	// at source ("hashicorp/null" or "registry.opentofu.org/hashicorp/null")
	// that meets constraints ("~> 3.2"; "" means any), and that version.
	Install(ctx context.Context, source, constraints string) (exe, version string, err error)
}

// The registry hosts a source address without one may name.
var defaultHosts = []string{"registry.opentofu.org", "registry.terraform.io"}

// Mirror is an Installer over providers already on disk: filesystem
// mirrors in Terraform's unpacked layout
// (HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE[_…]), then
// a terraform-provider-TYPE binary on PATH, which stands for any version and
// is reported as version 0.0.0.
type Mirror struct {
	Dirs []string
}

// DefaultMirrorDirs are the folders Terraform looks for providers in
// without a CLI configuration: terraform.d/plugins in the project folder,
// then ~/.terraform.d/plugins.
func DefaultMirrorDirs(projectDir string) []string {
	dirs := []string{filepath.Join(projectDir, "terraform.d", "plugins")}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".terraform.d", "plugins"))
	}
	return dirs
}

// Install implements Installer.
func (m Mirror) Install(_ context.Context, source, constraints string) (string, string, error) {
	addr, err := ParseSource(source)
	if err != nil {
		return "", "", err
	}
	want, err := version.NewConstraint(constraints)
	if constraints == "" {
		want, err = nil, nil
	}
	if err != nil {
		return "", "", fmt.Errorf("provider %s: invalid version constraint %q: %w", source, constraints, err)
	}
	hosts := defaultHosts
	if addr.Host != "" {
		hosts = []string{addr.Host}
	}
	var best *version.Version
	bestExe := ""
	platform := runtime.GOOS + "_" + runtime.GOARCH
	for _, dir := range m.Dirs {
		for _, host := range hosts {
			typeDir := filepath.Join(dir, host, addr.Namespace, addr.Type)
			entries, _ := os.ReadDir(typeDir)
			for _, e := range entries {
				v, err := version.NewVersion(e.Name())
				if err != nil || want != nil && !want.Check(v) || best != nil && !v.GreaterThan(best) {
					continue
				}
				if exe := executable(filepath.Join(typeDir, e.Name(), platform), addr.Type); exe != "" {
					best, bestExe = v, exe
				}
			}
		}
	}
	if best != nil {
		return bestExe, best.String(), nil
	}
	if exe, err := exec.LookPath("terraform-provider-" + addr.Type); err == nil {
		return exe, "0.0.0", nil
	}
	return "", "", fmt.Errorf("the Terraform provider %s%s is not installed: put it in a filesystem mirror (%s/%s/%s/%s/VERSION/%s/terraform-provider-%s) or put terraform-provider-%s on PATH",
		source, constraintText(constraints), filepath.Join("terraform.d", "plugins"), hosts[0], addr.Namespace, addr.Type, platform, addr.Type, addr.Type)
}

func constraintText(c string) string {
	if c == "" {
		return ""
	}
	return " (version " + c + ")"
}

// executable returns the provider's binary in a package folder: the first
// file named terraform-provider-TYPE, alone or followed by "_" or ".".
func executable(dir, typ string) string {
	entries, _ := os.ReadDir(dir)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	prefix := "terraform-provider-" + typ
	for _, n := range names {
		if n == prefix || strings.HasPrefix(n, prefix+"_") || strings.HasPrefix(n, prefix+".") {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// Source is a provider source address: [HOST/]NAMESPACE/TYPE.
type Source struct {
	Host, Namespace, Type string
}

// ParseSource parses a source address, lower-cased as Terraform folds it.
func ParseSource(s string) (Source, error) {
	parts := strings.Split(strings.ToLower(s), "/")
	for _, p := range parts {
		if p == "" {
			parts = nil
		}
	}
	switch len(parts) {
	case 2:
		return Source{Namespace: parts[0], Type: parts[1]}, nil
	case 3:
		return Source{Host: parts[0], Namespace: parts[1], Type: parts[2]}, nil
	}
	return Source{}, fmt.Errorf("invalid provider source %q: write it as NAMESPACE/TYPE or HOST/NAMESPACE/TYPE, such as \"hashicorp/null\"", s)
}
