package random

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

// maxExact is the largest magnitude of an integer that the state, which
// keeps numbers as 64-bit floats, holds exactly.
const maxExact = 1 << 53

// validateInteger checks that min and max are exact in the state and that
// the range from min to max is not empty.
func validateInteger(in resource.Map) []provider.CheckFailure {
	var failures []provider.CheckFailure
	for _, k := range []string{"min", "max"} {
		if n, ok := props.Int(in, k); ok && (n > maxExact || n < -maxExact) {
			failures = append(failures, provider.CheckFailure{Property: k,
				Reason: fmt.Sprintf("must be between -%d and %d, the integers the state holds exactly", int64(maxExact), int64(maxExact))})
		}
	}
	min, okMin := props.Int(in, "min")
	max, okMax := props.Int(in, "max")
	if okMin && okMax && max < min {
		failures = append(failures, provider.CheckFailure{Property: "max", Reason: fmt.Sprintf("must be at least min (%d), not %d", min, max)})
	}
	return failures
}

// generateInteger draws a RandomInteger: with a seed, as pulumi-random does
// for that seed. Its ID is the number.
func generateInteger(in resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	min, _ := props.Int(in, "min")
	max, _ := props.Int(in, "max")
	var n int64
	if seed, ok := props.String(in, "seed"); ok && seed != "" {
		n = int64(userSeeded(seed).Intn(int(max-min+1))) + min
	} else {
		n = src.Int64N(max-min+1) + min
	}
	return resource.Map{"result": resource.Number(float64(n))}, resource.ID(strconv.FormatInt(n, 10)), nil
}

// importInteger imports a RandomInteger from "<result>,<min>,<max>" or
// "<result>,<min>,<max>,<seed>".
func importInteger(id string) (resource.ID, resource.Map, resource.Map, error) {
	parts := strings.SplitN(id, ",", 4)
	if len(parts) < 3 {
		return "", nil, nil, fmt.Errorf("the ID must be \"<result>,<min>,<max>\" or \"<result>,<min>,<max>,<seed>\"")
	}
	var nums [3]int64
	for i, name := range []string{"result", "min", "max"} {
		n, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil {
			return "", nil, nil, fmt.Errorf("its %s, %q, is not an integer", name, parts[i])
		}
		nums[i] = n
	}
	if nums[0] < nums[1] || nums[0] > nums[2] {
		return "", nil, nil, fmt.Errorf("its result %d is not between min %d and max %d", nums[0], nums[1], nums[2])
	}
	inputs := resource.Map{"min": resource.Number(float64(nums[1])), "max": resource.Number(float64(nums[2]))}
	if len(parts) == 4 {
		inputs["seed"] = resource.String(parts[3])
	}
	return resource.ID(parts[0]), inputs, resource.Map{"result": resource.Number(float64(nums[0]))}, nil
}
