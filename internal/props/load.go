package props

import (
	"fmt"
	"strings"

	"github.com/agext/levenshtein"

	"github.com/cairn-iac/cairn/engine/schema"
)

// MustLoad parses a provider's embedded package schema and stamps it with the
// provider's version. It panics on a schema that does not parse: the schema
// is part of the program, and the provider's tests load it.
func MustLoad(data []byte, version string) *schema.Package {
	pkg, err := schema.Parse(data)
	if err != nil {
		panic(err)
	}
	pkg.Version = version
	return pkg
}

// Resource returns the resource type tok of pkg, or an error that names the
// types pkg does serve.
func Resource(pkg *schema.Package, tok string) (*schema.Resource, error) {
	if r, ok := pkg.Resources[tok]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("the %s provider has no resource type %q%s; its types are %s",
		pkg.Name, tok, didYouMean(tok, pkg.ResourceTokens()), strings.Join(pkg.ResourceTokens(), ", "))
}

// Function returns the function tok of pkg, or an error that names the
// functions pkg does offer.
func Function(pkg *schema.Package, tok string) (*schema.Function, error) {
	if f, ok := pkg.Functions[tok]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("the %s provider has no function %q%s; its functions are %s",
		pkg.Name, tok, didYouMean(tok, pkg.FunctionTokens()), strings.Join(pkg.FunctionTokens(), ", "))
}

// didYouMean returns ` (did you mean "x"?)` for the candidate within two
// edits of name, or "" when there is none.
func didYouMean(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := levenshtein.Distance(strings.ToLower(name), strings.ToLower(c), nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
