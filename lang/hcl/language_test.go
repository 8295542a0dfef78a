package hcl_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// TestLanguageBlock reads OpenTofu 1.12's language block as OpenTofu
// does: the opentofu constraint of compatible_with must allow the language
// Cairn implements, and edition and experiments allow only what OpenTofu
// 1.12 has.
func TestLanguageBlock(t *testing.T) {
	compatibleWith := func(args string) string { return "language {\n  compatible_with { " + args + " }\n}" }
	for name, tc := range map[string]struct{ src, errs, warns string }{
		"compatible":       {src: compatibleWith(`opentofu = ">= 1.12.0"`)},
		"other software":   {src: compatibleWith(`other = "~> 9.0"`)},
		"edition":          {src: `language { edition = tofu2024 }`},
		"no experiments":   {src: `language { experiments = [] }`},
		"terraform's":      {src: `terraform { language = TF2021 }`},
		"incompatible":     {src: compatibleWith(`opentofu = "< 1.12"`), errs: "Incompatible module"},
		"not a constraint": {src: compatibleWith(`opentofu = "soon"`), errs: `"soon" is not a version constraint`},
		"ineffective":      {src: compatibleWith(`opentofu = ">= 1.0"`), warns: "Ineffective version constraint"},
		"duplicate": {src: "language {\n compatible_with { opentofu = \">= 1.12\" }\n compatible_with { opentofu = \">= 1.12\" }\n}",
			errs: "Duplicate compatible_with block"},
		"newer edition":   {src: `language { edition = tofu2030 }`, errs: "only edition is tofu2024, not tofu2030"},
		"quoted edition":  {src: `language { edition = "tofu2024" }`, errs: "Invalid language edition"},
		"experiment":      {src: `language { experiments = [magic] }`, errs: `There is no experiment "magic"`},
		"unknown setting": {src: `language { version = 2 }`, errs: `An argument named "version" is not expected here`},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := langhcl.Parse("main.tf", []byte(tc.src+"\n"), langhcl.Options{Project: "p"})
			var errs, warns []string
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					errs = append(errs, d.Error())
				} else {
					warns = append(warns, d.Error())
				}
			}
			for _, c := range []struct {
				got  []string
				want string
			}{{errs, tc.errs}, {warns, tc.warns}} {
				got := strings.Join(c.got, "\n")
				if c.want == "" && got != "" || !strings.Contains(got, c.want) {
					t.Errorf("diagnostics:\n%s\nwant: %q", got, c.want)
				}
			}
		})
	}
}
