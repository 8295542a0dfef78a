package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/ctymarks"

	"github.com/cairn-iac/cairn/eval/values"
)

// ephemeralIf marks v ephemeral when ephemeral is set.
func ephemeralIf(v cty.Value, ephemeral bool) cty.Value {
	if ephemeral {
		return v.Mark(values.Ephemeral)
	}
	return v
}

// refuseEphemeral reports an error at rng when v holds an ephemeral value,
// naming where in v it is when not all of v is.
func (s *scopeRun) refuseEphemeral(v cty.Value, rng hcl.Range, summary, detail string) bool {
	if !v.HasMarkDeep(values.Ephemeral) {
		return true
	}
	_, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[values.Ephemeral]; ok && len(pvm.Path) > 0 {
			detail = fmt.Sprintf("%s is ephemeral. %s", pathString(pvm.Path), detail)
			break
		}
	}
	s.r.report(hcl.Diagnostics{errorDiag(rng, summary, detail)})
	return false
}

// pathString renders a path within a value as HCL writes it: input,
// tags["a"], items[0].
func pathString(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch st := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.Name)
		case cty.IndexStep:
			b.WriteString("[" + InstanceKey(st.Key) + "]")
		}
	}
	return b.String()
}

// ephemeralAsSecret makes the ephemeral values of a provider's
// configuration secrets: the state keeps a provider's inputs, encrypted
// when secret.
func ephemeralAsSecret(v cty.Value) cty.Value {
	out, err := v.WrangleMarksDeep(func(mark any, _ cty.Path) (ctymarks.WrangleAction, error) {
		if mark == values.Ephemeral {
			return ctymarks.WrangleReplace(values.Secret), nil
		}
		return nil, nil
	})
	if err != nil {
		return v
	}
	return out
}
