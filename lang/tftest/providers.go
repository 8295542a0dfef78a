package tftest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// providerFiles renders the provider configurations a run gives the
// configuration c: the test file's provider blocks, or those its
// providers mapping names, under the names the mapping gives them. Those
// the configuration declares too go to the override file, whose blocks
// replace the arguments of the configuration's, as a test file's provider
// blocks replace them under tofu test; the others to the plain file.
func providerFiles(f *File, run *Run, c *Config) (plain, override string, diags hcl.Diagnostics) {
	type given struct {
		name, alias string
		from        *Provider
	}
	var list []given
	if run.Providers == nil {
		for _, p := range f.Providers {
			list = append(list, given{p.Name, p.Alias, p})
		}
	} else {
		pairs, d := hcl.ExprMap(run.Providers)
		diags = append(diags, d...)
		for _, pair := range pairs {
			key, d := hcl.AbsTraversalForExpr(pair.Key)
			diags = append(diags, d...)
			val, d2 := hcl.AbsTraversalForExpr(pair.Value)
			diags = append(diags, d2...)
			if d.HasErrors() || d2.HasErrors() {
				continue
			}
			g := given{name: key.RootName(), from: providerOf(f, val)}
			if len(key) > 1 {
				if a, ok := key[1].(hcl.TraverseAttr); ok {
					g.alias = a.Name
				}
			}
			if g.from != nil {
				list = append(list, g)
			}
		}
	}
	var p, o strings.Builder
	for _, g := range list {
		key := g.name
		if g.alias != "" {
			key += "." + g.alias
		}
		out := &p
		if c.declaresProvider(key) {
			out = &o
		}
		fmt.Fprintf(out, "provider %q {\n", g.name)
		if g.alias != "" {
			fmt.Fprintf(out, "  alias = %q\n", g.alias)
		}
		out.WriteString(providerBody(f.Source, g.from.Block.Body.(*hclsyntax.Body)))
		out.WriteString("}\n")
	}
	return p.String(), o.String(), diags
}

// providerBody is the source (in src) of a provider block's body, without
// its alias and for_each, which the run decides.
func providerBody(src []byte, body *hclsyntax.Body) string {
	var out strings.Builder
	for _, a := range sortedAttributes(body) {
		if a.Name == "alias" || a.Name == "for_each" {
			continue
		}
		out.WriteString("  " + string(a.SrcRange.SliceBytes(src)) + "\n")
	}
	for _, blk := range body.Blocks {
		out.WriteString("  " + string(blk.Range().SliceBytes(src)) + "\n")
	}
	return out.String()
}

func sortedAttributes(b *hclsyntax.Body) []*hclsyntax.Attribute {
	var out []*hclsyntax.Attribute
	for _, a := range b.Attributes {
		out = append(out, a)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].SrcRange.Start.Byte < out[j-1].SrcRange.Start.Byte; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
