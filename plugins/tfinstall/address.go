package tfinstall

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// DefaultHost is the registry a source address without a hostname names,
// as in OpenTofu. Addresses on registry.terraform.io are accepted too and
// stay distinct: "hashicorp/null" is registry.opentofu.org/hashicorp/null.
const DefaultHost = "registry.opentofu.org"

// Provider is a provider's source address, case-folded.
type Provider struct {
	Hostname  string // e.g. registry.opentofu.org, or example.com:8443
	Namespace string
	Type      string
}

// String returns the fully qualified address, the form lock files use.
func (p Provider) String() string { return p.Hostname + "/" + p.Namespace + "/" + p.Type }

// ParseProvider reads a source address, [hostname/]namespace/type; a lone
// type names hashicorp/<type> on DefaultHost, as an unqualified provider
// name does in Terraform configurations.
func ParseProvider(s string) (Provider, error) {
	parts := strings.Split(s, "/")
	var p Provider
	switch len(parts) {
	case 1:
		p = Provider{Hostname: DefaultHost, Namespace: "hashicorp", Type: parts[0]}
	case 2:
		p = Provider{Hostname: DefaultHost, Namespace: parts[0], Type: parts[1]}
	case 3:
		host, err := normalizeHost(parts[0])
		if err != nil {
			return Provider{}, fmt.Errorf("provider source %q: invalid hostname %q: %v", s, parts[0], err)
		}
		p = Provider{Hostname: host, Namespace: parts[1], Type: parts[2]}
	default:
		return Provider{}, fmt.Errorf("provider source %q: write it as [hostname/]namespace/type, e.g. hashicorp/null", s)
	}
	var err error
	if p.Namespace, err = normalizeName(p.Namespace); err != nil {
		return Provider{}, fmt.Errorf("provider source %q: invalid namespace: %v", s, err)
	}
	if p.Type, err = normalizeName(p.Type); err != nil {
		return Provider{}, fmt.Errorf("provider source %q: invalid type: %v", s, err)
	}
	for _, prefix := range []string{"terraform-provider-", "terraform-", "opentofu-"} {
		if strings.HasPrefix(p.Type, prefix) {
			return Provider{}, fmt.Errorf("provider source %q: a type may not start with %q; did you mean %s/%s?", s, prefix, p.Namespace, strings.TrimPrefix(p.Type, prefix))
		}
	}
	if p.Hostname == "terraform.io" && p.Namespace == "builtin" {
		return Provider{}, fmt.Errorf("provider source %q: %s is built into Terraform, not installed", s, p)
	}
	return p, nil
}

// normalizeName case-folds a namespace or type and checks it is letters,
// digits and single dashes, neither starting nor ending with a dash.
func normalizeName(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("it is empty")
	}
	s = strings.ToLower(s)
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return "", fmt.Errorf("%q holds %q at %d; only letters, digits and dashes are allowed", s, r, i)
		}
	}
	if s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return "", fmt.Errorf("%q: dashes may not start or end a name, nor come in pairs", s)
	}
	return s, nil
}

// normalizeHost case-folds a hostname with an optional port, keeping an
// internationalized name in its Unicode form as Terraform displays it;
// the default port 443 is dropped.
func normalizeHost(s string) (string, error) {
	host, port, hasPort := strings.Cut(s, ":")
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("port %q is not a number from 1 to 65535", port)
		}
		port = strconv.Itoa(n)
	}
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil || ascii == "" {
		if err == nil {
			err = fmt.Errorf("it is empty")
		}
		return "", err
	}
	display, err := idna.Lookup.ToUnicode(ascii)
	if err != nil {
		return "", err
	}
	if hasPort && port != "443" {
		display += ":" + port
	}
	return display, nil
}

// hostKey is the form of a hostname credentials are keyed by: ASCII
// (Punycode), lower case, with a port other than 443.
func hostKey(hostport string) string {
	host, port, hasPort := strings.Cut(strings.ToLower(hostport), ":")
	if ascii, err := idna.Lookup.ToASCII(host); err == nil {
		host = ascii
	}
	if hasPort && port != "443" {
		return host + ":" + port
	}
	return host
}
