package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// tool is a Terraform command-line tool the stacks of null_resource are
// also taken through, on the same provider binary: OpenTofu or Terraform.
type tool struct {
	label string // its name and version, e.g. "OpenTofu 1.12.6"
	bin   string
}

// newTool names the tool at bin after the version it reports.
func newTool(name, bin string) (*tool, error) {
	cmd := exec.Command(bin, "version", "-json")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=", "CHECKPOINT_DISABLE=1") // no configuration's warnings, no update check
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s version: %w", bin, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("%s version -json: %w", bin, err)
	}
	return &tool{label: name + " " + v.Version, bin: bin}, nil
}

// toolDriver takes a stack through its life with OpenTofu or Terraform,
// after an init: apply creates; plan -refresh=false is the no-change
// preview (-detailed-exitcode fails it if anything would change); the
// no-change apply, the 1% update and destroy skip the refresh too, as
// cairn's up and destroy do; apply -refresh-only refreshes.
func (b *bench) toolDriver(t tool) driver {
	flags := []string{"-input=false", "-no-color"}
	cmd := func(name string, extra ...string) []string {
		return append(append([]string{name}, flags...), extra...)
	}
	return driver{
		bin:   t.bin,
		env:   []string{"TF_CLI_CONFIG_FILE=" + b.tfConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_PLUGIN_CACHE_DIR="},
		setup: cmd("init"),
		steps: [numPhases][]string{
			phaseUp:         cmd("apply", "-auto-approve"),
			phasePreview:    cmd("plan", "-refresh=false", "-detailed-exitcode"),
			phaseNoChangeUp: cmd("apply", "-auto-approve", "-refresh=false"),
			phaseRefresh:    cmd("apply", "-auto-approve", "-refresh-only"),
			phaseUpdate:     cmd("apply", "-auto-approve", "-refresh=false"),
			phaseDestroy:    cmd("destroy", "-auto-approve", "-refresh=false"),
		},
		state: filepath.Join("project", "terraform.tfstate"),
	}
}

// nullMirror files the null provider binary in a filesystem mirror as
// hashicorp/null b.nullVersion, under the default hosts of OpenTofu (and
// cairn) and of Terraform, and writes the CLI configuration that installs
// providers from it alone (b.tfConfig): no row reaches the network.
func (b *bench) nullMirror() error {
	data, err := os.ReadFile(b.nullProvider)
	if err != nil {
		return err
	}
	mirror := filepath.Join(b.work, "tfmirror")
	for _, host := range []string{"registry.opentofu.org", "registry.terraform.io"} {
		dir := filepath.Join(mirror, host, "hashicorp", "null", b.nullVersion, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-null"), data, 0o755); err != nil {
			return err
		}
	}
	b.tfConfig = filepath.Join(b.work, "cli.tfrc")
	return os.WriteFile(b.tfConfig, fmt.Appendf(nil, "provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror), 0o644)
}

// comparison says how many times longer each tool took than cairn (each
// variant) on the stacks of null_resource, phase by phase.
func comparison(rows []row, results []result) string {
	var lines []string
	for i, r := range rows {
		if r.tool == nil {
			continue
		}
		for j, c := range rows {
			if c.stack.shape != r.stack.shape || c.tool != nil || c.stack.n != r.stack.n {
				continue
			}
			var cells []string
			for p := range numPhases {
				cells = append(cells, fmt.Sprintf("%s %.1f×", phaseNames[p], float64(results[i].phases[p].wall)/float64(results[j].phases[p].wall)))
			}
			lines = append(lines, fmt.Sprintf("%s / %s, %d %s: %s.", r.tool.label,
				strings.TrimPrefix(c.variant, "Terraform provider, by "), r.stack.n, r.stack.shape, strings.Join(cells, ", ")))
		}
	}
	return strings.Join(lines, "\n")
}
