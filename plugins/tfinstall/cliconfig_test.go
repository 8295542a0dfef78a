package tfinstall

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

func TestCLIConfig(t *testing.T) {
	home := isolate(t)
	path := writeFile(t, filepath.Join(home, "cli.tfrc"), []byte(`
# Terraform's CLI configuration is HCL 1; what providers need reads as HCL 2.
plugin_cache_dir   = "$HOME/cache"
disable_checkpoint = true

credentials "App.Terraform.io" {
  token = "cloud-token"
}

host "private.example.com" {
  services = {
    "providers.v1" = "https://api.example.com/providers/"
    "login.v1"     = { client = "terraform-cli" }
  }
}

provider_installation {
  dev_overrides {
    "hashicorp/null" = "/src/null/bin"
    "example.com/acme/thing" = "/src/thing"
  }
  filesystem_mirror {
    path    = "/mirror"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url     = "https://mirror.example.com/providers/"
    exclude = ["hashicorp/*", "*/acme/*"]
    download_retry_count = 5
  }
  direct {
    exclude = ["*/*/*"]
  }
}
`))
	cfg, err := loadCLIConfig(path, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.pluginCacheDir != filepath.Join(home, "cache") {
		t.Errorf("plugin_cache_dir %q", cfg.pluginCacheDir)
	}
	if want := map[tfaddr.Host]string{"app.terraform.io": "cloud-token"}; !reflect.DeepEqual(cfg.credentials, want) {
		t.Errorf("credentials %v", cfg.credentials)
	}
	if want := map[tfaddr.Host]map[string]any{"private.example.com": {"providers.v1": "https://api.example.com/providers/"}}; !reflect.DeepEqual(cfg.hosts, want) {
		t.Errorf("hosts %v", cfg.hosts)
	}
	in := cfg.installation
	if in == nil {
		t.Fatal("no provider_installation")
	}
	wantOverrides := map[Provider]string{
		{Hostname: tfaddr.DefaultHost, Namespace: "hashicorp", Type: "null"}: "/src/null/bin",
		{Hostname: "example.com", Namespace: "acme", Type: "thing"}:          "/src/thing",
	}
	if !reflect.DeepEqual(in.devOverrides, wantOverrides) {
		t.Errorf("dev_overrides %v", in.devOverrides)
	}
	var kinds []string
	for _, m := range in.methods {
		kinds = append(kinds, m.kind+" "+m.location)
	}
	if want := []string{"filesystem_mirror /mirror", "network_mirror https://mirror.example.com/providers/", "direct "}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("methods %q", kinds)
	}
	if in.methods[1].retries != 5 || in.methods[0].retries != -1 {
		t.Errorf("retries %d %d", in.methods[1].retries, in.methods[0].retries)
	}
	covers := map[string][]bool{ // by method: filesystem, network, direct
		"example.com/acme/thing":               {true, false, false},
		"example.com/other/thing":              {true, true, false},
		"registry.opentofu.org/hashicorp/null": {false, false, false},
		"registry.terraform.io/hashicorp/null": {false, true, false},
	}
	for src, want := range covers {
		p, _ := tfaddr.ParseProvider(src)
		for i, m := range in.methods {
			if m.covers(p) != want[i] {
				t.Errorf("%s method covers %s: %v", m.kind, src, !want[i])
			}
		}
	}
}

func TestCLIConfigJSON(t *testing.T) {
	home := isolate(t)
	path := writeFile(t, filepath.Join(home, "credentials.tfrc.json"), []byte(`{
  "credentials": {"example.com": {"token": "json-token"}},
  "provider_installation": {
    "dev_overrides": {"hashicorp/null": "/src/null"},
    "direct": [{"exclude": ["hashicorp/null"]}]
  }
}`))
	cfg, err := loadCLIConfig(path, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.credentials["example.com"] != "json-token" || cfg.installation.devOverrides[Provider{Hostname: tfaddr.DefaultHost, Namespace: "hashicorp", Type: "null"}] != "/src/null" || len(cfg.installation.methods) != 1 {
		t.Errorf("got %+v %+v", cfg, cfg.installation)
	}
}

func TestCLIConfigErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`provider_installation {
  direct {}
  dev_overrides {
    "hashicorp/null" = "/x"
  }
}`, "cli.tfrc:3:3: dev_overrides must come before the other installation methods"},
		{`provider_installation {
  network_mirror { url = "http://mirror.example.com/" }
}`, `cli.tfrc:2:3: network_mirror url "http://mirror.example.com/" must be an https:// URL`},
		{`provider_installation {
  filesystem_mirror {}
}`, `cli.tfrc:2:21: Missing required argument: The argument "path" is required`},
		{`provider_installation {
  oci_mirror { repository_template = "x" }
}`, "cli.tfrc:2:3: Cairn does not install providers from OCI mirrors"},
		{`provider_installation {
  carrier_pigeon {}
}`, "cli.tfrc:2:3: Unsupported block type"},
		{`provider_installation {
  direct { include = ["a/b/c/d"] }
}`, `cli.tfrc:2:3: include: "a/b/c/d" is not a pattern`},
		{`provider_installation {
  direct { exclude = ["bad_host/*/*"] }
}`, "invalid hostname"},
		{`provider_installation {
  dev_overrides {
    "a/b/c/d" = "/x"
  }
}`, "cli.tfrc:3:5: dev_overrides: provider source \"a/b/c/d\""},
		{`provider_installation {}
provider_installation {}`, "cli.tfrc:2:1: a second provider_installation block; the CLI configuration may hold one, and the first is at"},
		{`host "example.com" { services = ["x"] }`, "cli.tfrc:1:33: services must be an object"},
		{`credentials "bad host" { token = "x" }`, `cli.tfrc:1:13: credentials block: invalid hostname "bad host"`},
		{`plugin_cache_dir = 3 +`, "cli.tfrc:1:"},
	}
	for _, tt := range tests {
		home := isolate(t)
		_, err := loadCLIConfig(writeFile(t, filepath.Join(home, "cli.tfrc"), []byte(tt.src)), t.Logf)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s\n: %v\nwant an error saying %q", tt.src, err, tt.want)
		}
	}
}

// TestCLIConfigFiles checks which files are read, as OpenTofu reads them.
func TestCLIConfigFiles(t *testing.T) {
	t.Run("tofurc before terraformrc, plus the configuration folder", func(t *testing.T) {
		home := isolate(t)
		tofurc := writeFile(t, filepath.Join(home, ".tofurc"), []byte(`plugin_cache_dir = "/from/tofurc"`))
		writeFile(t, filepath.Join(home, ".terraformrc"), []byte(`plugin_cache_dir = "/from/terraformrc"`))
		extra := writeFile(t, filepath.Join(home, ".terraform.d", "extra.tfrc"), []byte(`credentials "example.com" { token = "t" }`))
		creds := writeFile(t, filepath.Join(home, ".terraform.d", "credentials.tfrc.json"), []byte(`{"credentials": {"other.example.com": {"token": "u"}}}`))
		writeFile(t, filepath.Join(home, ".terraform.d", "notes.txt"), []byte(`not HCL`))
		cfg, err := loadCLIConfig("", t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{tofurc, creds, extra}; !reflect.DeepEqual(cfg.files, want) {
			t.Errorf("files %v, want %v", cfg.files, want)
		}
		if cfg.pluginCacheDir != "/from/tofurc" || len(cfg.credentials) != 2 {
			t.Errorf("got %+v", cfg)
		}
	})
	t.Run("terraformrc", func(t *testing.T) {
		home := isolate(t)
		rc := writeFile(t, filepath.Join(home, ".terraformrc"), nil)
		if cfg, err := loadCLIConfig("", t.Logf); err != nil || !reflect.DeepEqual(cfg.files, []string{rc}) {
			t.Errorf("got %v, %v", cfg.files, err)
		}
	})
	t.Run("XDG", func(t *testing.T) {
		home := isolate(t)
		rc := writeFile(t, filepath.Join(home, "xdg_config_home", "opentofu", "tofurc"), nil)
		extra := writeFile(t, filepath.Join(home, "xdg_config_home", "opentofu", "x.tfrc"), nil)
		if cfg, err := loadCLIConfig("", t.Logf); err != nil || !reflect.DeepEqual(cfg.files, []string{rc, extra}) {
			t.Errorf("got %v, %v", cfg.files, err)
		}
	})
	t.Run("TF_CLI_CONFIG_FILE alone", func(t *testing.T) {
		home := isolate(t)
		writeFile(t, filepath.Join(home, ".tofurc"), nil)
		writeFile(t, filepath.Join(home, ".terraform.d", "extra.tfrc"), nil)
		named := writeFile(t, filepath.Join(home, "ci.tfrc"), []byte(`plugin_cache_dir = "/ci"`))
		t.Setenv("TF_CLI_CONFIG_FILE", named)
		t.Setenv("TF_PLUGIN_CACHE_DIR", "/from/env")
		cfg, err := loadCLIConfig("", t.Logf)
		if err != nil || !reflect.DeepEqual(cfg.files, []string{named}) || cfg.pluginCacheDir != "/from/env" {
			t.Errorf("got %+v, %v", cfg, err)
		}
		t.Setenv("TF_CLI_CONFIG_FILE", filepath.Join(home, "missing.tfrc"))
		var warned string
		cfg, err = loadCLIConfig("", func(format string, args ...any) { warned = fmt.Sprintf(format, args...) })
		if err != nil || len(cfg.files) != 0 || !strings.Contains(warned, "missing.tfrc") {
			t.Errorf("a missing file in TF_CLI_CONFIG_FILE: %v, %v, warned %q", cfg.files, err, warned)
		}
		if _, err := loadCLIConfig(filepath.Join(home, "missing.tfrc"), t.Logf); err == nil || !strings.Contains(err.Error(), "missing.tfrc") {
			t.Errorf("a missing file named in the options: %v", err)
		}
	})
}

func TestTokens(t *testing.T) {
	isolate(t)
	t.Setenv("TF_TOKEN_my__registry_example_com", "env-token")
	t.Setenv("TF_TOKEN_example_com", "env-wins")
	t.Setenv("TF_TOKEN_empty_example_com", "")
	got := tokens(map[tfaddr.Host]string{"example.com": "config", "other.example.com": "config-only"})
	want := map[tfaddr.Host]string{"my-registry.example.com": "env-token", "example.com": "env-wins", "other.example.com": "config-only"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestEnvHost(t *testing.T) {
	for in, want := range map[tfaddr.Host]string{"my-registry.example.com": "my__registry_example_com", "xn--caf-dma.fr": "xn____caf__dma_fr"} {
		if got := envHost(in); got != want {
			t.Errorf("envHost(%s) = %q, want %q", in, got, want)
		}
	}
	// A TF_TOKEN_ name in Punycode is read as OpenTofu reads it.
	isolate(t)
	t.Setenv("TF_TOKEN_xn____caf__dma_fr", "t")
	if got := tokens(nil); got["xn--caf-dma.fr"] != "t" {
		t.Errorf("tokens: %v", got)
	}
}
