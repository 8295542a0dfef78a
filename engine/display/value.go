package display

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/engine/resource"
)

// The texts that stand for values a reader may not or cannot see.
const (
	secretText  = "[secret]"
	unknownText = "(known after apply)"
)

// memberIndent indents the members of an object or array under it.
const memberIndent = "    "

// valueFormat renders property values for people: strings quoted, objects
// and arrays one member a line, secrets masked unless shown, unknowns as
// (known after apply).
type valueFormat struct {
	showSecrets bool
}

// lines renders v as one line, or as several for a non-empty object or
// array; later lines are indented relative to the first.
func (f valueFormat) lines(v resource.Value) []string {
	switch {
	case v.IsOutput():
		return f.lines(v.Resolve())
	case v.IsSecret():
		if !f.showSecrets {
			return []string{secretText}
		}
		return f.lines(v.SecretElement())
	case v.IsObject():
		return f.object(v.ObjectValue())
	case v.IsArray():
		return f.array(v.ArrayValue())
	}
	return []string{scalarText(v)}
}

func (f valueFormat) object(m resource.Map) []string {
	if len(m) == 0 {
		return []string{"{}"}
	}
	keys := m.SortedKeys()
	names := make([]string, len(keys))
	width := 0
	for i, k := range keys {
		names[i] = keyText(k)
		width = max(width, utf8.RuneCountInString(names[i]))
	}
	out := []string{"{"}
	for i, k := range keys {
		out = appendMember(out, padRight(names[i], width)+": ", f.lines(m[k]))
	}
	return append(out, "}")
}

func (f valueFormat) array(vs []resource.Value) []string {
	if len(vs) == 0 {
		return []string{"[]"}
	}
	out := []string{"["}
	for i, e := range vs {
		out = appendMember(out, fmt.Sprintf("[%d]: ", i), f.lines(e))
	}
	return append(out, "]")
}

// appendMember appends a member of an object or array, its label before the
// first line of its value.
func appendMember(out []string, label string, value []string) []string {
	out = append(out, memberIndent+label+value[0])
	for _, l := range value[1:] {
		out = append(out, memberIndent+l)
	}
	return out
}

// scalarText renders a value that is not an object, array, secret or output.
func scalarText(v resource.Value) string {
	switch v.Kind() {
	case resource.NullKind:
		return "null"
	case resource.BoolKind:
		return strconv.FormatBool(v.BoolValue())
	case resource.NumberKind:
		return resource.FormatNumber(v.NumberValue())
	case resource.StringKind:
		return strconv.Quote(v.StringValue())
	case resource.UnknownKind:
		return unknownText
	case resource.AssetKind:
		a := v.AssetValue()
		return "asset(" + blobText(a.Path, a.URI, fmt.Sprintf("text, %d bytes", len(a.Text)), a.Hash) + ")"
	case resource.ArchiveKind:
		a := v.ArchiveValue()
		return "archive(" + blobText(a.Path, a.URI, fmt.Sprintf("%d members", len(a.Assets)), a.Hash) + ")"
	case resource.ResourceRefKind:
		u := v.RefValue().URN
		return "ref(" + u.Type() + " " + u.Name() + ")"
	}
	return v.String()
}

// blobText describes an asset or archive by where it comes from and a short
// hash, so that two versions with the same source can be told apart.
func blobText(path, uri, inline, hash string) string {
	s := inline
	switch {
	case path != "":
		s = "file: " + path
	case uri != "":
		s = "uri: " + uri
	}
	if len(hash) > 8 {
		s += ", sha256:" + hash[:8]
	}
	return s
}

// keyText writes an object key bare when it is a plain name and quoted
// otherwise.
func keyText(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-./:", r) {
			return strconv.Quote(k)
		}
	}
	return k
}

// padRight pads s with spaces to width runes.
func padRight(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}
