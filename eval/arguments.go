package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval/values"
)

// Arguments is an object expression that knows where each of its
// properties is written: HCL's resource and data blocks. Errors about
// one property point at it.
type Arguments interface {
	hcl.Expression
	// ArgumentRange returns the range of the property's expression.
	ArgumentRange(property string) (hcl.Range, bool)
}

// ephemeralAt returns where the first ephemeral property of v, the value
// of e, is written: its range when e is Arguments, else e's (fallback when
// e is nil).
func ephemeralAt(e hcl.Expression, fallback hcl.Range, v cty.Value) hcl.Range {
	args, ok := e.(Arguments)
	if !ok {
		return rangeOr(e, fallback)
	}
	_, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		if _, eph := pvm.Marks[values.Ephemeral]; !eph || len(pvm.Path) == 0 {
			continue
		}
		if step, ok := pvm.Path[0].(cty.GetAttrStep); ok {
			if rng, ok := args.ArgumentRange(step.Name); ok {
				return rng
			}
		}
	}
	return e.Range()
}
