package random

import (
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

func validateShuffle(in resource.Map) []provider.CheckFailure {
	return atLeast(in, "resultCount", 0, true)
}

// generateShuffle puts the inputs in random orders, one whole order after
// another, until it has resultCount strings: with a seed, as pulumi-random
// does for that seed. Its ID says nothing of the order.
func generateShuffle(in resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	inputs, _ := props.Strings(in, "inputs")
	count, ok := props.Int(in, "resultCount")
	if !ok {
		count = int64(len(inputs))
	}
	perm := src.Perm
	if seed, ok := props.String(in, "seed"); ok && seed != "" {
		perm = userSeeded(seed).Perm
	}
	results := []resource.Value{}
	for len(inputs) > 0 && int64(len(results)) < count {
		for _, i := range perm(len(inputs)) {
			if int64(len(results)) == count {
				break
			}
			results = append(results, resource.String(inputs[i]))
		}
	}
	return resource.Map{"results": resource.Array(results...)}, src.opaqueID(), nil
}
