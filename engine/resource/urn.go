package resource

import (
	"fmt"
	"strings"
	"unicode"
)

// URN is a resource's uniform resource name:
//
//	urn:pulumi:<stack>::<project>::<parent-type$...$type>::<name>
type URN string

const urnPrefix = "urn:pulumi:"

// RootStackType is the type of every stack's root resource.
const RootStackType = "pulumi:pulumi:Stack"

// NewURN builds the URN of a resource of type typ named name in stack and
// project, under a parent whose qualified type is parentType ("" for a
// resource at the root or directly under the root stack resource).
func NewURN(stack, project, parentType, typ, name string) URN {
	qualified := typ
	if parentType != "" && parentType != RootStackType {
		qualified = parentType + "$" + typ
	}
	return URN(urnPrefix + stack + "::" + project + "::" + qualified + "::" + name)
}

// ParseURN checks that s follows the URN grammar and returns it as a URN.
func ParseURN(s string) (URN, error) {
	if !strings.HasPrefix(s, urnPrefix) {
		return "", fmt.Errorf("invalid URN %q: it must start with %q", s, urnPrefix)
	}
	parts := strings.SplitN(s[len(urnPrefix):], "::", 4)
	if len(parts) != 4 {
		return "", fmt.Errorf("invalid URN %q: want urn:pulumi:<stack>::<project>::<type>::<name>", s)
	}
	for _, t := range strings.Split(parts[2], "$") {
		if err := ValidateType(t); err != nil {
			return "", fmt.Errorf("invalid URN %q: %w", s, err)
		}
	}
	return URN(s), nil
}

func (u URN) parts() []string {
	s := string(u)
	if !strings.HasPrefix(s, urnPrefix) {
		return nil
	}
	parts := strings.SplitN(s[len(urnPrefix):], "::", 4)
	if len(parts) != 4 {
		return nil
	}
	return parts
}

func (u URN) part(i int) string {
	if p := u.parts(); p != nil {
		return p[i]
	}
	return ""
}

// IsValid reports whether u is well formed.
func (u URN) IsValid() bool { _, err := ParseURN(string(u)); return err == nil }

// Stack returns the stack name of u.
func (u URN) Stack() string { return u.part(0) }

// Project returns the project name of u.
func (u URN) Project() string { return u.part(1) }

// QualifiedType returns the parent-qualified type of u (types joined by "$").
func (u URN) QualifiedType() string { return u.part(2) }

// Type returns the resource type of u (the last element of the qualified type).
func (u URN) Type() string {
	q := u.QualifiedType()
	return q[strings.LastIndexByte(q, '$')+1:]
}

// Name returns the resource name of u.
func (u URN) Name() string { return u.part(3) }

// UnkeyedName is the URN's name without its instance keys, or those of
// the modules it is in: web[0] and web["a"] are web, site[1].web is
// site.web.
func (u URN) UnkeyedName() string {
	var b strings.Builder
	depth, quoted := 0, false
	name := u.Name()
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case quoted && c == '\\':
			i++
		case c == '"' && depth > 0:
			quoted = !quoted
		case !quoted && c == '[':
			depth++
		case !quoted && c == ']':
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Rename returns u with another name.
func (u URN) Rename(name string) URN {
	p := u.parts()
	if p == nil {
		return u
	}
	return URN(urnPrefix + p[0] + "::" + p[1] + "::" + p[2] + "::" + name)
}

// ValidateType checks a type token: package:[module:]name, each part an
// identifier (module may contain '/').
func ValidateType(t string) error {
	parts := strings.Split(t, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return fmt.Errorf("type %q must have the form <package>:[<module>:]<name>", t)
	}
	for _, p := range parts {
		if p == "" {
			return fmt.Errorf("type %q has an empty part", t)
		}
		for _, r := range p {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-./", r) {
				return fmt.Errorf("type %q contains %q", t, r)
			}
		}
	}
	return nil
}

// TypePackage returns the package of a type token ("aws" of "aws:s3/bucket:Bucket").
func TypePackage(t string) string {
	if i := strings.IndexByte(t, ':'); i >= 0 {
		return t[:i]
	}
	return t
}

// TypeModule returns the module of a type token ("s3/bucket" of
// "aws:s3/bucket:Bucket"; "" for a two-part token).
func TypeModule(t string) string {
	parts := strings.Split(t, ":")
	if len(parts) == 3 {
		return parts[1]
	}
	return ""
}

// TypeName returns the last part of a type token ("Bucket").
func TypeName(t string) string { return t[strings.LastIndexByte(t, ':')+1:] }

// ProviderTypePrefix begins the type of every provider resource.
const ProviderTypePrefix = "pulumi:providers:"

// IsProviderType reports whether t is the type of a provider resource.
func IsProviderType(t string) bool { return strings.HasPrefix(t, ProviderTypePrefix) }

// IsDefaultProvider reports whether urn names a default provider: a
// provider resource the engine registered for resources that name none
// ("default", or "default_<version>..."), which Pulumi neither shows nor
// counts as a resource of the stack.
func IsDefaultProvider(urn URN) bool {
	name := urn.Name()
	return IsProviderType(urn.Type()) && (name == "default" || strings.HasPrefix(name, "default_"))
}

// ProviderType returns the provider resource type of package pkg.
func ProviderType(pkg string) string { return ProviderTypePrefix + pkg }

// ProviderTypePackage returns the package of provider type t.
func ProviderTypePackage(t string) string { return strings.TrimPrefix(t, ProviderTypePrefix) }
