package backend

import (
	"fmt"
	"regexp"
)

// Tags are a stack's tags: names and values the user sets on it (`cairn
// stack tag`), as Pulumi's stack tags.
type Tags map[string]string

// tagName is what a tag's name may hold, as in Pulumi.
var tagName = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,40}$`)

// maxTagValue is the longest tag value Pulumi accepts.
const maxTagValue = 256

// ValidateTag checks a tag's name and value against Pulumi's rules.
func ValidateTag(name, value string) error {
	if !tagName.MatchString(name) {
		return fmt.Errorf("invalid tag name %q: a tag name holds 1 to 40 letters, digits, '_', '.', ':' and '-'", name)
	}
	if len(value) > maxTagValue {
		return fmt.Errorf("the value of tag %s is %d characters long; a tag value holds at most %d", name, len(value), maxTagValue)
	}
	return nil
}
