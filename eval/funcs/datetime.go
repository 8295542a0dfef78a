package funcs

import (
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// TimestampFunc returns the current time in UTC as an RFC 3339 timestamp.
// It is impure: the table makes it unknown during a preview.
var TimestampFunc = clockFunc("Returns the current time in UTC as an RFC 3339 timestamp.", time.Now)

// planTimestampFunc returns plantimestamp, the time this program's
// evaluation began: the same in every call, and known during a preview.
func (s *scope) planTimestampFunc() function.Function {
	return clockFunc("Returns the time the evaluation of the program began, in UTC as an RFC 3339 timestamp.", func() time.Time { return s.planTime })
}

func clockFunc(description string, now func() time.Time) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.StringVal(now().UTC().Format(time.RFC3339)), nil
		},
	})
}

// TimeCmpFunc compares two RFC 3339 timestamps: -1 if the first is earlier,
// 0 if they are the same instant, 1 if it is later.
var TimeCmpFunc = function.New(&function.Spec{
	Description: "Compares two RFC 3339 timestamps: -1 if the first is earlier than the second, 0 if they are the same instant, 1 if it is later.",
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Number),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeInclusive(cty.NumberIntVal(-1), cty.NumberIntVal(1))
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var ts [2]time.Time
		for i := range ts {
			t, err := time.Parse(time.RFC3339, args[i].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(i, "%q is not an RFC 3339 timestamp; write timestamps like 2006-01-02T15:04:05Z or 2006-01-02T15:04:05+01:00", args[i].AsString())
			}
			ts[i] = t
		}
		return cty.NumberIntVal(int64(ts[0].Compare(ts[1]))), nil
	},
})
