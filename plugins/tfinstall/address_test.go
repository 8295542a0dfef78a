package tfinstall

import (
	"strings"
	"testing"
)

func TestParseProvider(t *testing.T) {
	tests := []struct {
		in   string
		want string // or the error's substring, after "error: "
	}{
		{"null", "registry.opentofu.org/hashicorp/null"},
		{"hashicorp/null", "registry.opentofu.org/hashicorp/null"},
		{"HashiCorp/Null", "registry.opentofu.org/hashicorp/null"},
		{"registry.opentofu.org/hashicorp/null", "registry.opentofu.org/hashicorp/null"},
		{"registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/aws"},
		{"REGISTRY.Example.COM/acme/thing-one", "registry.example.com/acme/thing-one"},
		{"example.com:8443/acme/thing", "example.com:8443/acme/thing"},
		{"example.com:443/acme/thing", "example.com/acme/thing"},
		{"xn--caf-dma.fr/acme/thing", "café.fr/acme/thing"},
		{"café.fr/acme/thing", "café.fr/acme/thing"},
		{"a/b/c/d", "error: write it as [hostname/]namespace/type"},
		{"hashicorp/", "error: invalid type: it is empty"},
		{"hashi_corp/null", "error: invalid namespace"},
		{"hashicorp/-null", "error: dashes may not start or end"},
		{"hashicorp/nu--ll", "error: dashes may not start or end a name, nor come in pairs"},
		{"hashicorp/terraform-provider-null", "error: did you mean hashicorp/null?"},
		{"hashicorp/terraform-null", "error: did you mean hashicorp/null?"},
		{"bad_host.com/acme/thing", "error: invalid hostname"},
		{"example.com:99999/acme/thing", "error: port \"99999\""},
		{"terraform.io/builtin/terraform", "error: built into Terraform"},
	}
	for _, tt := range tests {
		p, err := ParseProvider(tt.in)
		if want, ok := strings.CutPrefix(tt.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ParseProvider(%q) = %v, %v; want an error saying %q", tt.in, p, err, want)
			}
			continue
		}
		if err != nil || p.String() != tt.want {
			t.Errorf("ParseProvider(%q) = %v, %v; want %s", tt.in, p, err, tt.want)
		}
	}
}

func TestHostKey(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM":       "example.com",
		"example.com:443":   "example.com",
		"example.com:8443":  "example.com:8443",
		"café.fr":           "xn--caf-dma.fr",
		"xn--caf-dma.fr:10": "xn--caf-dma.fr:10",
	} {
		if got := hostKey(in); got != want {
			t.Errorf("hostKey(%q) = %q, want %q", in, got, want)
		}
	}
	if got := envHost("my-registry.example.com"); got != "my__registry_example_com" {
		t.Errorf("envHost = %q", got)
	}
}
