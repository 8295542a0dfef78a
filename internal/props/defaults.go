package props

import (
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// WithDefaults returns a copy of m in which each declared property that is
// absent or null takes its schema default, if it has one.
func WithDefaults(properties map[string]*schema.Property, m resource.Map) resource.Map {
	out := m.Copy()
	if out == nil {
		out = resource.Map{}
	}
	for k, p := range properties {
		if p.Default == nil || !out[k].IsNull() {
			continue
		}
		out[k] = resource.FromGo(p.Default)
	}
	return out
}

// Visible returns m without the keys that begin with InternalPrefix.
func Visible(m resource.Map) resource.Map {
	out := make(resource.Map, len(m))
	for k, v := range m {
		if !strings.HasPrefix(k, InternalPrefix) {
			out[k] = v
		}
	}
	return out
}
