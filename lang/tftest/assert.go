package tftest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// checkPrefix names the check blocks that hold a run's assertions.
const checkPrefix = "cairn_tftest_"

// assertFile is the name of the file of check blocks written into the
// configuration's work copy for a run, without its extension (.tf, or
// .hcl in an HCL project).
const assertFile = "zz_cairn_tftest"

// checksFor renders a run's assertions as check blocks of the
// configuration c, the i-th named cairn_tftest_<i>. What only the test
// file knows is written in: run.NAME.X and the test's own
// variables become their values, output.NAME the output's expression.
// The line each check block ends on comes back too, to tell which
// assertion an error in the file is about.
func checksFor(f *File, r *Run, c *Config, ctx *hcl.EvalContext) (string, []int, hcl.Diagnostics) {
	var b strings.Builder
	var diags hcl.Diagnostics
	var ends []int
	for i, a := range r.Asserts {
		cond, d := rewrite(f, a.Condition, c, ctx)
		diags = append(diags, d...)
		msg, d := rewrite(f, a.ErrorMessage, c, ctx)
		diags = append(diags, d...)
		fmt.Fprintf(&b, "check %q {\n  assert {\n    condition = (%s)\n    error_message = %s\n  }\n}\n", fmt.Sprint(checkPrefix, i), cond, msg)
		ends = append(ends, strings.Count(b.String(), "\n"))
	}
	return b.String(), ends, diags
}

// assertAt is the assertion whose check block holds line of the file
// checksFor wrote, or nil.
func assertAt(r *Run, ends []int, line int) *Assert {
	for i, end := range ends {
		if line <= end {
			return r.Asserts[i]
		}
	}
	return nil
}

// rewrite returns the source of e with the references of the test file
// replaced by what they stand for in the configuration.
func rewrite(f *File, e hcl.Expression, c *Config, ctx *hcl.EvalContext) (string, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, tr := range e.Variables() {
		rng := tr.SourceRange()
		switch root := tr.RootName(); {
		case root == "run" || (root == "var" && c.Objects[Address(tr)] == nil):
			v, d := tr.TraverseAbs(ctx)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			edits = append(edits, edit{rng.Start.Byte, rng.End.Byte, "(" + literal(v) + ")"})
		case root == "output":
			o := c.Objects[Address(tr)]
			if o == nil || o.Value == nil {
				continue
			}
			vr := o.Value.Range()
			src := c.Files[vr.Filename].Bytes[vr.Start.Byte:vr.End.Byte]
			// output.NAME and its steps: the expression, then the steps.
			rest := tr[2:]
			tail := ""
			if len(rest) > 0 {
				tail = string(f.Source[rest[0].SourceRange().Start.Byte:rng.End.Byte])
			}
			edits = append(edits, edit{rng.Start.Byte, rng.End.Byte, "(" + string(src) + ")" + tail})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	r := e.Range()
	src := string(f.Source[r.Start.Byte:r.End.Byte])
	for _, ed := range edits {
		src = src[:ed.from-r.Start.Byte] + ed.text + src[ed.to-r.Start.Byte:]
	}
	return src, diags
}

// literal writes a value as an HCL expression; a sensitive value (a
// secret output of a run) stays sensitive.
func literal(v cty.Value) string {
	if v.ContainsMarked() {
		plain, _ := v.UnmarkDeep()
		return "sensitive(" + string(hclwrite.TokensForValue(plain).Bytes()) + ")"
	}
	return string(hclwrite.TokensForValue(v).Bytes())
}
