package eval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval/values"
)

// splitWriteOnly splits a resource's properties by the schema's write-only
// inputs (a Terraform provider's write-only attributes, which never reach
// the state): it returns the properties with those values secret, and the
// properties without them, which must hold no ephemeral value.
func (rt *resourceType) splitWriteOnly(props cty.Value) (all, kept cty.Value) {
	if len(rt.writeOnly) == 0 || props.IsNull() || !props.IsKnown() || !props.Type().IsObjectType() {
		return props, props
	}
	plain, marks := props.Unmark()
	allAttrs, keptAttrs := map[string]cty.Value{}, map[string]cty.Value{}
	found := false
	for name, v := range plain.AsValueMap() {
		if rt.writeOnly[name] {
			allAttrs[name] = v.Mark(values.Secret)
			found = true
			continue
		}
		allAttrs[name], keptAttrs[name] = v, v
	}
	if !found {
		return props, props
	}
	return cty.ObjectVal(allAttrs).WithMarks(marks), cty.ObjectVal(keptAttrs).WithMarks(marks)
}
