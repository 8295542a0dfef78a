package rpc

import (
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
)

// TimeoutStrings is any wire form of a resource's custom timeouts: the
// register and construct requests each have one. Nil messages read as
// empty.
type TimeoutStrings interface {
	GetCreate() string
	GetUpdate() string
	GetDelete() string
	GetRead() string
}

// Timeouts reads custom timeouts written as duration strings ("5m").
func Timeouts(t TimeoutStrings) (resource.CustomTimeouts, error) {
	var out resource.CustomTimeouts
	for _, f := range []struct {
		op, s string
		dst   *float64
	}{{"create", t.GetCreate(), &out.Create}, {"update", t.GetUpdate(), &out.Update},
		{"delete", t.GetDelete(), &out.Delete}, {"read", t.GetRead(), &out.Read}} {
		if f.s == "" {
			continue
		}
		d, err := time.ParseDuration(f.s)
		if err != nil {
			return out, fmt.Errorf("%s timeout %q is not a duration such as \"90s\" or \"5m\"", f.op, f.s)
		}
		*f.dst = d.Seconds()
	}
	return out, nil
}

// Duration renders seconds as a duration string; zero gives "", which the
// wire reads as "not set".
func Duration(seconds float64) string {
	if seconds == 0 {
		return ""
	}
	return time.Duration(seconds * float64(time.Second)).String()
}
