package funcs

import (
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

func TestDateTimeFunctions(t *testing.T) {
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"timecmp": {
			{args: []cty.Value{str("2024-02-03T04:05:06Z"), str("2024-02-03T04:05:07Z")}, want: num(-1)},
			{args: []cty.Value{str("2024-02-03T04:05:07Z"), str("2024-02-03T04:05:06Z")}, want: num(1)},
			{args: []cty.Value{str("2024-02-03T04:05:06Z"), str("2024-02-03T05:05:06+01:00")}, want: num(0)},
			{args: []cty.Value{str("2024-02-03T04:05:06.5Z"), str("2024-02-03T04:05:06Z")}, want: num(1)},
			{args: []cty.Value{str("2024-02-03"), str("2024-02-03T04:05:06Z")}, err: `"2024-02-03" is not an RFC 3339 timestamp; write timestamps like 2006-01-02T15:04:05Z`},
			{args: []cty.Value{str("2024-02-03T04:05:06Z"), str("ﬄ")}, err: `"ﬄ" is not an RFC 3339 timestamp`},
			{args: []cty.Value{secret(str("1 May")), str("2024-02-03T04:05:06Z")}, err: "the details are hidden because it is secret"},
			{args: []cty.Value{cty.UnknownVal(cty.String), str("2024-02-03T04:05:06Z")}, want: cty.UnknownVal(cty.Number).Refine().NotNull().NumberRangeInclusive(num(-1), num(1)).NewValue()},
		},
		"formatdate": {
			{args: []cty.Value{str("DD 'ﬄ' MMM YYYY"), str("2024-02-03T04:05:06Z")}, want: str("03 ﬄ Feb 2024")},
			{args: []cty.Value{str("YYYY"), secret(str("2024-02-03T04:05:06Z"))}, want: secret(str("2024"))},
			{args: []cty.Value{str("YYYY"), secret(str("hunter2"))}, err: "the details are hidden because it is secret"},
		},
		"timeadd": {
			{args: []cty.Value{str("2024-02-03T04:05:06Z"), str("-90m")}, want: str("2024-02-03T02:35:06Z")},
			{args: []cty.Value{str("2024-02-03T04:05:06Z"), str("1 day")}, err: "time: unknown unit"},
		},
	})
}

func TestTimestamp(t *testing.T) {
	before := time.Now().Add(-time.Second)
	fns := Functions(Options{})
	for _, name := range []string{"timestamp", "plantimestamp"} {
		t.Run(name, func(t *testing.T) {
			got, err := fns[name].Call(nil)
			if err != nil {
				t.Fatal(err)
			}
			ts, err := time.Parse(time.RFC3339, got.AsString())
			if err != nil || ts.Before(before) || ts.After(time.Now()) || ts.Location() != time.UTC {
				t.Errorf("wrong result\ngot:  %#v\nwant: the time now in UTC as an RFC 3339 timestamp", got)
			}
		})
	}
}
