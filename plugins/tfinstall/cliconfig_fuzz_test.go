package tfinstall

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// FuzzCLIConfig reads CLI configuration files (.terraformrc, *.tfrc and
// *.tfrc.json): no file panics, and one that reads gives hosts by their
// normalized names, the three installation methods only, network mirrors
// over https, patterns of three parts, and the same configuration when
// read again. The seeds are forms the CLI configuration tests read.
func FuzzCLIConfig(f *testing.F) {
	for _, seed := range []string{
		`plugin_cache_dir = "$HOME/cache"` + "\ndisable_checkpoint = true\nplugin_cache_may_break_dependency_lock_file = true\n",
		`credentials "App.Terraform.io" { token = "cloud-token" }`,
		`host "private.example.com" { services = { "providers.v1" = "https://api.example.com/providers/", "login.v1" = { client = "x" } } }`,
		"provider_installation {\n  dev_overrides {\n    \"hashicorp/null\" = \"/src/null/bin\"\n  }\n  filesystem_mirror {\n    path = \"/mirror\"\n    include = [\"example.com/*/*\"]\n  }\n}\n",
		"provider_installation {\n  network_mirror {\n    url = \"https://mirror.example.com/\"\n    exclude = [\"hashicorp/*\", \"*/acme/*\"]\n    download_retry_count = 5\n  }\n  direct { exclude = [\"*/*/*\"] }\n}\n",
		"provider_installation {\n  direct {}\n  dev_overrides {\n    \"a/b/c/d\" = \"/x\"\n  }\n}\n",
		"provider_installation {\n  oci_mirror { repository_template = \"x\" }\n}\nprovider_installation {}\n",
	} {
		f.Add([]byte(seed), false)
	}
	f.Add([]byte(`{"credentials": {"example.com": {"token": "json-token"}}, "provider_installation": {"dev_overrides": {"hashicorp/null": "/src/null"}, "direct": [{"exclude": ["hashicorp/null"]}]}}`), true)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		path := filepath.Join(dir, "cli.tfrc")
		if json {
			path += ".json"
		}
		writeFile(t, path, src)
		cfg := &cliConfig{credentials: map[tfaddr.Host]string{}, hosts: map[tfaddr.Host]map[string]any{}}
		if err := cfg.read(path); err != nil {
			return
		}
		for h := range cfg.credentials {
			if n, err := tfaddr.ParseLenientHost(h.String()); err != nil || n != h {
				t.Fatalf("credentials for %q, not a normalized host", h)
			}
		}
		for h := range cfg.hosts {
			if n, err := tfaddr.ParseLenientHost(h.String()); err != nil || n != h {
				t.Fatalf("host block for %q, not a normalized host", h)
			}
		}
		if in := cfg.installation; in != nil {
			for _, m := range in.methods {
				if !slices.Contains([]string{"direct", "filesystem_mirror", "network_mirror"}, m.kind) {
					t.Fatalf("installation method %q", m.kind)
				}
				if m.kind == "network_mirror" && !strings.HasPrefix(m.location, "https://") {
					t.Fatalf("network mirror %q", m.location)
				}
				for _, pt := range slices.Concat(m.include, m.exclude) {
					if slices.Contains(pt[:], "") {
						t.Fatalf("pattern %q has an empty part", pt)
					}
				}
			}
		}
		again := &cliConfig{credentials: map[tfaddr.Host]string{}, hosts: map[tfaddr.Host]map[string]any{}}
		if err := again.read(path); err != nil || !reflect.DeepEqual(cfg, again) {
			t.Fatalf("read again: %+v, %v; first %+v", again, err, cfg)
		}
	})
}
