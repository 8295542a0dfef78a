package random

import (
	"fmt"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

// defaultSpecial are the special characters a string draws from unless
// overrideSpecial names others.
const defaultSpecial = "!@#$%&*()-_=+[]{}<>:?"

// charClass is one class of characters of RandomString and RandomPassword.
type charClass struct {
	enabled string // the bool input that lets the class fill the string
	min     string // the integer input of the least number drawn from it
	chars   string
}

func charClasses(in resource.Map) []charClass {
	special, ok := props.String(in, "overrideSpecial")
	if !ok {
		special = defaultSpecial
	}
	return []charClass{
		{"upper", "minUpper", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
		{"lower", "minLower", "abcdefghijklmnopqrstuvwxyz"},
		{"numeric", "minNumeric", "0123456789"},
		{"special", "minSpecial", special},
	}
}

// validateCharset checks the lengths of a RandomString or RandomPassword:
// the length is at least 1 and at least the sum of the minimums, which are
// not negative, and some class of characters may fill the string.
func validateCharset(in resource.Map) []provider.CheckFailure {
	failures := atLeast(in, "length", 1, true)
	var sum int64
	anyEnabled, allKnown := false, true
	for _, c := range charClasses(in) {
		failures = append(failures, atLeast(in, c.min, 0, true)...)
		n, ok := props.Int(in, c.min)
		enabled, known := props.Bool(in, c.enabled)
		sum += n
		allKnown = allKnown && ok && known
		anyEnabled = anyEnabled || enabled
	}
	if length, ok := props.Int(in, "length"); ok && allKnown && length < sum {
		failures = append(failures, provider.CheckFailure{Property: "length",
			Reason: fmt.Sprintf("must be at least minUpper + minLower + minNumeric + minSpecial, which is %d, not %d", sum, length)})
	}
	if allKnown && !anyEnabled {
		failures = append(failures, provider.CheckFailure{Property: "special",
			Reason: "at least one of upper, lower, numeric and special must be true, or there is nothing to draw from"})
	}
	return failures
}

// generateString draws a RandomString: its result is also its ID.
func generateString(in resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	s, err := drawString(in, src)
	if err != nil {
		return nil, "", err
	}
	return resource.Map{"result": resource.String(s)}, resource.ID(s), nil
}

// drawString draws the minimum of each class, fills the rest of the length
// from the enabled classes together, and shuffles the whole.
func drawString(in resource.Map, src *source) (string, error) {
	length, _ := props.Int(in, "length")
	var out, pool []rune
	for _, c := range charClasses(in) {
		chars := []rune(c.chars)
		n, _ := props.Int(in, c.min)
		if n > 0 && len(chars) == 0 {
			return "", fmt.Errorf("%s is %d but there are no characters to draw from", c.min, n)
		}
		for range n {
			out = append(out, chars[src.IntN(len(chars))])
		}
		if enabled, _ := props.Bool(in, c.enabled); enabled {
			pool = append(pool, chars...)
		}
	}
	if rest := int(length) - len(out); rest > 0 {
		if len(pool) == 0 {
			return "", fmt.Errorf("no class of characters is enabled to fill the remaining %d characters", rest)
		}
		for range rest {
			out = append(out, pool[src.IntN(len(pool))])
		}
	}
	src.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return string(out), nil
}

// importString imports a RandomString from its value: the inputs are its
// length in characters and the defaults.
func importString(id string) (resource.ID, resource.Map, resource.Map, error) {
	if id == "" {
		return "", nil, nil, fmt.Errorf("the ID is the string itself, and it is empty")
	}
	inputs := resource.Map{"length": resource.Number(float64(utf8.RuneCountInString(id)))}
	return resource.ID(id), inputs, resource.Map{"result": resource.String(id)}, nil
}
