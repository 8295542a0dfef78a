package random

import (
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/internal/props"
)

// normalize returns the inputs of a resource in the one form they are
// recorded and compared in, so that inputs that mean the same compare equal
// (inputs recorded by pulumi-random, which leaves defaults out, included):
//   - number and numeric agree: one that is not set follows the other (it
//     is a failure when both are set and differ);
//   - keepers without a value are dropped, and no keepers are no keepers;
//   - an empty overrideSpecial is no overrideSpecial;
//   - every other property not set takes its default.
//
// The provider's own keys are left out.
func normalize(res *schema.Resource, m resource.Map) (resource.Map, []provider.CheckFailure) {
	out := props.Visible(m)
	var failures []provider.CheckFailure
	if _, ok := res.InputProperties["numeric"]; ok {
		number, numeric := out["number"], out["numeric"]
		switch {
		case number.IsNull():
			out["number"] = numeric
		case numeric.IsNull():
			out["numeric"] = number
		case !number.ContainsUnknowns() && !numeric.ContainsUnknowns() && !number.Unsecret().Equal(numeric.Unsecret()):
			failures = append(failures, provider.CheckFailure{Property: "number",
				Reason: "number is the former name of numeric and differs from it; set only numeric"})
		}
	}
	if keepers := out["keepers"]; keepers.IsObject() {
		kept := resource.Map{}
		for k, v := range keepers.ObjectValue() {
			if !v.IsNull() {
				kept[k] = v
			}
		}
		out["keepers"] = resource.Object(kept)
		if len(kept) == 0 {
			delete(out, "keepers")
		}
	}
	if s, ok := out["overrideSpecial"]; ok && s.IsString() && s.StringValue() == "" {
		delete(out, "overrideSpecial")
	}
	for k, v := range out {
		if v.IsNull() {
			delete(out, k)
		}
	}
	return props.WithDefaults(res.InputProperties, out), failures
}
