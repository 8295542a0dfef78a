package random

import (
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

func validatePet(in resource.Map) []provider.CheckFailure { return atLeast(in, "length", 1, true) }

// generatePet draws a name of length words: an animal, after an adjective
// when there are two words or more, after adverbs when there are three or
// more; the prefix, if any, comes first. The name is the resource's ID.
func generatePet(in resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	length, _ := props.Int(in, "length")
	separator, _ := props.String(in, "separator")
	words := make([]string, 0, length+1)
	if prefix, ok := props.String(in, "prefix"); ok && prefix != "" {
		words = append(words, prefix)
	}
	for i := int64(2); i < length; i++ {
		words = append(words, adverbs[src.IntN(len(adverbs))])
	}
	if length >= 2 {
		words = append(words, adjectives[src.IntN(len(adjectives))])
	}
	words = append(words, animals[src.IntN(len(animals))])
	return resource.Map{}, resource.ID(strings.Join(words, separator)), nil
}
