package tfaddr

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
		{"xn--caf-dma.fr/acme/thing", "error: specified in punycode format"},
		{"café.fr/acme/thing", "café.fr/acme/thing"},
		{"a/b/c/d", "error: Invalid provider source string"},
		{"hashicorp/", "error: Invalid provider source string"},
		{"hashi_corp/null", "error: Invalid provider namespace"},
		{"hashicorp/-null", "error: may not use leading or trailing dashes"},
		{"hashicorp/nu--ll", "error: cannot use multiple consecutive dashes"},
		{"hashicorp/terraform-provider-null", `error: Did you mean "hashicorp/null"?`},
		{"hashicorp/terraform-null", `error: has a type with the prefix "terraform-"`},
		{"bad_host.com/acme/thing", "error: Invalid provider source hostname"},
		{"example.com:99999/acme/thing", "error: port number is greater than 65535"},
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

func TestParseVersion(t *testing.T) {
	for _, s := range []string{"1.2.3", "0.0.0", "10.20.30-beta.1", "1.0.0+build.5", "1.0.0-rc.1+b7"} {
		v, err := ParseVersion(s)
		if err != nil || v.String() != s {
			t.Errorf("ParseVersion(%q) = %v, %v", s, v, err)
		}
	}
	for s, want := range map[string]string{
		"v1.2.3":    `a "v" prefix should not be used`,
		"1.2.3.4":   "too many numbered portions",
		"1.x.3":     "an exact version is required",
		"1.2.3-b_1": `invalid characters "_1"`,
		"":          "empty specification",
	} {
		if _, err := ParseVersion(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseVersion(%q): %v, want an error saying %q", s, err, want)
		}
	}
}

func TestVersionCompare(t *testing.T) {
	// In ascending order, as OpenTofu orders them: unlike semantic
	// versioning, go-versions puts a prerelease with more identifiers
	// after one with fewer (1.0.0-alpha.1 after 1.0.0-beta).
	ordered := []string{"1.0.0-1", "1.0.0-2", "1.0.0-10", "1.0.0-alpha", "1.0.0-beta", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "1.10.0", "2.0.0"}
	for i := range ordered {
		for j := range ordered {
			a, b := mustVersion(t, ordered[i]), mustVersion(t, ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("%s vs %s: %d, want %d", a, b, got, want)
			}
		}
	}
	if Compare(mustVersion(t, "1.0.0+a"), mustVersion(t, "1.0.0+b")) != 0 {
		t.Error("build metadata counted")
	}
}

func TestConstraints(t *testing.T) {
	tests := []struct {
		constraints string
		canonical   string
		allows      string // space-separated
		refuses     string
	}{
		{"", "", "0.0.1 1.0.0 99.0.0", "1.0.0-beta"},
		{"1.2.3", "1.2.3", "1.2.3", "1.2.4 1.2.2"},
		{"= 1.2.3", "1.2.3", "1.2.3", "1.2.4"},
		{"=1.2", "1.2.0", "1.2.0", "1.2.1"},
		{"!= 1.2.3", "!= 1.2.3", "1.2.2 1.2.4", "1.2.3"},
		{"> 1.2.3", "> 1.2.3", "1.2.4 2.0.0", "1.2.3 1.0.0"},
		{">= 1.2", ">= 1.2.0", "1.2.0 3.0.0", "1.1.9"},
		{"> 1", "> 1.0.0", "1.0.1", "1.0.0"},
		{"< 2", "< 2.0.0", "1.99.99", "2.0.0 2.0.0-beta"},
		{"<= 1.2.3", "<= 1.2.3", "1.2.3 0.1.0", "1.2.4"},
		{"~> 1.2.3", "~> 1.2.3", "1.2.3 1.2.99", "1.3.0 1.2.2"},
		{"~> 1.2", "~> 1.2", "1.2.0 1.9.0", "2.0.0 1.1.9"},
		{"~> 1", "~> 1.0", "1.0.0 1.9.9", "2.0.0 0.9.0"},
		{"~> 3.2, != 3.2.1", "~> 3.2, != 3.2.1", "3.2.0 3.2.2 3.9.0", "3.2.1 4.0.0"},
		{"!= 3.2.1, ~> 3.2", "~> 3.2, != 3.2.1", "3.2.0", "3.2.1"},
		{"< 2.0.0, >= 1.0.0, >= 1.0", ">= 1.0.0, < 2.0.0", "1.5.0", "2.0.0 0.9.0"},
		{">= 1.0.0, 1.2.0, <= 2", ">= 1.0.0, 1.2.0, <= 2.0.0", "1.2.0", "1.3.0"},
		{"1.0.0-beta", "1.0.0-beta", "1.0.0-beta", "1.0.0 1.0.0-alpha"},
		{">= 1.0.0-beta", ">= 1.0.0-beta", "1.0.0 1.1.0", "1.0.0-beta 1.0.0-rc.1"},
		{">= 1.0.0, 2.0.0-rc.1", ">= 1.0.0, 2.0.0-rc.1", "2.0.0-rc.1", "2.0.0 1.0.0"},
		{"~>1.2.3,<1.2.9", "~> 1.2.3, < 1.2.9", "1.2.8", "1.2.9"},
	}
	for _, tt := range tests {
		cs, err := ParseConstraints(tt.constraints)
		if err != nil {
			t.Errorf("ParseConstraints(%q): %v", tt.constraints, err)
			continue
		}
		if got := cs.String(); got != tt.canonical {
			t.Errorf("%q: canonical %q, want %q", tt.constraints, got, tt.canonical)
		}
		for _, v := range strings.Fields(tt.allows) {
			if !cs.Allows(mustVersion(t, v)) {
				t.Errorf("%q refuses %s", tt.constraints, v)
			}
		}
		for _, v := range strings.Fields(tt.refuses) {
			if cs.Allows(mustVersion(t, v)) {
				t.Errorf("%q allows %s", tt.constraints, v)
			}
		}
	}
	for s, want := range map[string]string{
		"=> 1.0":       `did you mean ">="?`,
		"=< 1.0":       `did you mean "<="?`,
		"~> v1.0":      `a "v" prefix should not be used`,
		">= 1.0,,< 2":  `invalid constraint operator ",<"`,
		">= 1.0 < 2.0": `missing comma after ">= 1.0"`,
		"~> 1.2.3.4":   "too many numbered portions",
		"^1.0":         `invalid constraint operator "^"`,
	} {
		if _, err := ParseConstraints(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConstraints(%q): %v, want an error saying %q", s, err, want)
		}
	}
}

func mustVersion(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// FuzzGrammar reads arbitrary strings as every kind of address and as
// version constraints: none panics, a provider address reads back as
// itself, and canonical constraints read back as themselves.
func FuzzGrammar(f *testing.F) {
	for _, s := range []string{"hashicorp/null", "café.fr:8443/acme/thing", "\x91./0/0", "~> 1.2, != 1.2.3", ">= 1.0.0-beta", "a/b/c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseHost(s)
		ParseModule(s)
		if p, err := ParseProvider(s); err == nil {
			if again, err := ParseProvider(p.String()); err != nil || again != p {
				t.Fatalf("%q reads as %s, which reads back as %v, %v", s, p, again, err)
			}
		}
		if cs, err := ParseConstraints(s); err == nil {
			if again, err := ParseConstraints(cs.String()); err != nil || again.String() != cs.String() {
				t.Fatalf("%q is canonically %q, which reads back as %v, %v", s, cs, again, err)
			}
		}
	})
}
