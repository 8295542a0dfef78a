package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// pulumiDIY is Pulumi's CLI, whose DIY backend the S3 rows of -pulumi-diy-n
// are also taken through, on the same server: pulumi-language-yaml runs the
// program, and cairn, installed as pulumi-resource-random, serves the
// random provider (as it does for TestPulumiInterop), so that nothing is
// downloaded.
type pulumiDIY struct {
	label string // "Pulumi v3.274.1, DIY backend"
	bin   string
	path  string // PATH: the shim's folder, pulumi's, then the rest
}

// newPulumiDIY readies Pulumi's CLI at bin; the shim is made in work.
func newPulumiDIY(bin, cairn, work string) (*pulumiDIY, error) {
	if _, err := exec.LookPath(filepath.Join(filepath.Dir(bin), "pulumi-language-yaml")); err != nil {
		return nil, fmt.Errorf("pulumi-language-yaml is not beside %s (.ci/pulumi builds both): %w", bin, err)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s version: %w", bin, err)
	}
	shims := filepath.Join(work, "pulumi-shims")
	if err := os.MkdirAll(shims, 0o755); err != nil {
		return nil, err
	}
	if err := os.Symlink(cairn, filepath.Join(shims, "pulumi-resource-random")); err != nil {
		return nil, err
	}
	return &pulumiDIY{label: "Pulumi " + strings.TrimSpace(string(out)) + ", DIY backend", bin: bin,
		path: shims + string(os.PathListSeparator) + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")}, nil
}

// pulumiDriver takes a stack through its life with Pulumi's CLI. Every
// phase skips Pulumi's preview (cairn's up with --yes runs none either).
func (b *bench) pulumiDriver(p pulumiDIY, home string) driver {
	flags := []string{"--stack", "dev", "--non-interactive"}
	cmd := func(args ...string) []string { return append(args, flags...) }
	return driver{
		bin: p.bin,
		env: []string{"PATH=" + p.path, "PULUMI_HOME=" + home, "PULUMI_CONFIG_PASSPHRASE=bench", "PULUMI_SKIP_UPDATE_CHECK=true",
			"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true"},
		setup: []string{"stack", "init", "dev", "--non-interactive"},
		steps: [numPhases][]string{
			phaseUp:         cmd("up", "--yes", "--skip-preview"),
			phasePreview:    cmd("preview", "--expect-no-changes"),
			phaseNoChangeUp: cmd("up", "--yes", "--skip-preview", "--expect-no-changes"),
			phaseRefresh:    cmd("refresh", "--yes", "--skip-preview"),
			phaseUpdate:     cmd("up", "--yes", "--skip-preview"),
			phaseDestroy:    cmd("destroy", "--yes", "--skip-preview"),
		},
	}
}
