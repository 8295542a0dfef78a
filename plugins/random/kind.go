package random

import (
	"fmt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// kind is what sets one resource type apart from the others.
type kind struct {
	// validate reports the failures of normalized inputs beyond their types
	// (ranges, sums); values that are unknown are not judged.
	validate func(in resource.Map) []provider.CheckFailure
	// generate draws the resource's generated outputs and its ID from src.
	// In a preview it leaves unknown what cannot be known before creation.
	generate func(in resource.Map, src *source, preview bool) (resource.Map, resource.ID, error)
	// importID turns an import ID into the resource's ID, the inputs a
	// program must declare to match it, and its generated outputs; nil when
	// the type cannot be imported.
	importID func(id string) (resource.ID, resource.Map, resource.Map, error)
}

// kinds are the resource types by token.
var kinds = map[string]kind{
	"random:index/randomString:RandomString":     {validate: validateCharset, generate: generateString, importID: importString},
	"random:index/randomPassword:RandomPassword": {validate: validateCharset, generate: generatePassword, importID: importPassword},
	"random:index/randomId:RandomId":             {validate: validateID, generate: generateID, importID: importID},
	"random:index/randomInteger:RandomInteger":   {validate: validateInteger, generate: generateInteger, importID: importInteger},
	"random:index/randomBytes:RandomBytes":       {validate: validateBytes, generate: generateBytes, importID: importBytes},
	"random:index/randomUuid:RandomUuid":         {validate: noRanges, generate: generateUUID4, importID: importUUID},
	"random:index/randomUuid4:RandomUuid4":       {validate: noRanges, generate: generateUUID4, importID: importUUID},
	"random:index/randomUuid7:RandomUuid7":       {validate: noRanges, generate: generateUUID7, importID: importUUID},
	"random:index/randomPet:RandomPet":           {validate: validatePet, generate: generatePet},
	"random:index/randomShuffle:RandomShuffle":   {validate: validateShuffle, generate: generateShuffle},
}

func noRanges(resource.Map) []provider.CheckFailure { return nil }

// maxLength bounds the lengths a program may ask for, so that a typo cannot
// exhaust memory.
const maxLength = 1 << 16

// atLeast reports a failure when the known integer input k is below min (or
// above maxLength, for lengths).
func atLeast(in resource.Map, k string, min int64, length bool) []provider.CheckFailure {
	v := in[k]
	if v.IsSecret() {
		v = v.SecretElement()
	}
	if !v.IsNumber() {
		return nil
	}
	switch n := int64(v.NumberValue()); {
	case n < min:
		return []provider.CheckFailure{{Property: k, Reason: fmt.Sprintf("must be at least %d, not %d", min, n)}}
	case length && n > maxLength:
		return []provider.CheckFailure{{Property: k, Reason: fmt.Sprintf("must be at most %d, not %d", maxLength, n)}}
	}
	return nil
}
