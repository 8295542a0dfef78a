// Package tfaddr reads Terraform's grammar of addresses and versions with
// the libraries OpenTofu builds with, so that Cairn's HCL front end and its
// installers read them as OpenTofu does: hostnames of services
// (github.com/opentofu/svchost), provider and module registry addresses
// (github.com/opentofu/registry-address/v2), versions and version
// constraints of providers (github.com/apparentlymart/go-versions) and of
// modules (github.com/hashicorp/go-version, with go-versions's rule for
// prereleases, as OpenTofu's module installer reads them).
package tfaddr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/apparentlymart/go-versions/versions"
	regaddr "github.com/opentofu/registry-address/v2"
	"github.com/opentofu/svchost"
)

// Host is a service hostname, with a port other than 443, in the ASCII
// (Punycode) form credentials are keyed by; ForDisplay gives the Unicode
// form addresses are written in.
type Host = svchost.Hostname

// DefaultHost is the registry a provider or module address without a
// hostname names, as in OpenTofu. Addresses on registry.terraform.io are
// accepted too and stay distinct.
const DefaultHost = regaddr.DefaultProviderRegistryHost

// ParseHost reads a hostname with an optional port, as an address or a
// CLI configuration block writes it (in Unicode, not Punycode).
func ParseHost(s string) (Host, error) {
	if err := checkUTF8(s); err != nil {
		return "", err
	}
	h, err := svchost.ForComparison(s)
	if err != nil {
		return "", fmt.Errorf("invalid hostname %q: %v", s, err)
	}
	return h, nil
}

// ParseLenientHost reads a hostname given in Unicode or in Punycode, as
// OpenTofu reads the hostnames of TF_TOKEN_ variables.
func ParseLenientHost(s string) (Host, error) {
	return ParseHost(svchost.ForDisplay(s))
}

// Provider is a provider's source address; String gives it fully
// qualified, the form lock files use.
type Provider = regaddr.Provider

// ParseSource reads a provider source address as OpenTofu reads the
// source of a required_providers entry: [hostname/]namespace/type, a lone
// type naming hashicorp/<type> on DefaultHost. Built-in providers
// (terraform.io/builtin/...) are addresses too.
func ParseSource(s string) (Provider, error) {
	if err := checkUTF8(s); err != nil {
		return Provider{}, err
	}
	p, err := regaddr.ParseProviderSource(s)
	if err != nil {
		var pe *regaddr.ParserError
		if errors.As(err, &pe) {
			return Provider{}, fmt.Errorf("provider source %q: %s: %s", s, pe.Summary, strings.TrimSuffix(pe.Detail, `"`))
		}
		return Provider{}, fmt.Errorf("provider source %q: %v", s, err)
	}
	if !p.HasKnownNamespace() {
		p.Namespace = "hashicorp"
	}
	return p, nil
}

// ParseProvider reads the source address of a provider to install, as
// ParseSource does, refusing the providers built into Terraform and the
// legacy namespace "-": there is nothing to install.
func ParseProvider(s string) (Provider, error) {
	p, err := ParseSource(s)
	switch {
	case err != nil:
		return Provider{}, err
	case p.Namespace == regaddr.LegacyProviderNamespace:
		return Provider{}, fmt.Errorf("provider source %q: the legacy namespace \"-\" names no installable provider; write namespace/type, e.g. hashicorp/null", s)
	case p.IsBuiltIn():
		return Provider{}, fmt.Errorf("provider source %q: %s is built into Terraform, not installed", s, p)
	}
	return p, nil
}

// Module is a module registry address, [hostname/]namespace/name/system,
// with an optional //subdirectory.
type Module = regaddr.Module

// ParseModule reads a module registry address. It refuses every other kind
// of module source: local paths and remote packages are for the caller.
func ParseModule(s string) (Module, error) {
	if err := checkUTF8(s); err != nil {
		return Module{}, err
	}
	return regaddr.ParseModuleSource(s)
}

// checkUTF8 refuses an address that is not UTF-8, whose hostname the
// libraries would accept and then fail to display (svchost panics).
func checkUTF8(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%q is not UTF-8 text", s)
	}
	return nil
}

// Version is a semantic version; build metadata plays no part in
// comparisons.
type Version = versions.Version

// ParseVersion reads a version written in full: major.minor.patch with an
// optional -prerelease and +metadata.
func ParseVersion(s string) (Version, error) {
	v, err := versions.ParseVersion(s)
	if err != nil {
		return Version{}, fmt.Errorf("version %q: %v", s, err)
	}
	return v, nil
}

// Compare orders versions by semantic version precedence: a prerelease
// comes before its release, metadata is ignored.
func Compare(a, b Version) int {
	switch {
	case a.LessThan(b):
		return -1
	case a.GreaterThan(b):
		return 1
	}
	return 0
}
