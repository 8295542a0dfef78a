package console

import (
	"fmt"
	"math"

	"github.com/cairn-iac/cairn/engine/resource"
)

// encodeValue is a property value as the API sends it. Strings, numbers,
// booleans and null are JSON's; anything else is an object with one member,
// which says what it is:
//
//	{"object": {…}}  {"array": […]}  {"secret": true}  {"unknown": true}
//	{"asset": "…"}  {"archive": "…"}  {"resource": URN, "id": …}
//	{"number": "NaN"} (and "+Inf", "-Inf")
//
// so an object of the resource can never pass for a secret or the reverse.
// A secret is sent as {"secret": true}, whatever it holds.
func encodeValue(v resource.Value) any {
	switch {
	case v.IsOutput():
		return encodeValue(v.Resolve())
	case v.IsSecret():
		return map[string]any{"secret": true}
	case v.IsUnknown():
		return map[string]any{"unknown": true}
	case v.IsBool():
		return v.BoolValue()
	case v.IsNumber():
		if f := v.NumberValue(); math.IsNaN(f) || math.IsInf(f, 0) {
			return map[string]any{"number": resource.FormatNumber(f)}
		}
		return v.NumberValue()
	case v.IsString():
		return v.StringValue()
	case v.IsArray():
		out := make([]any, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			out[i] = encodeValue(e)
		}
		return map[string]any{"array": out}
	case v.IsObject():
		return map[string]any{"object": encodeMap(v.ObjectValue())}
	case v.IsAsset():
		a := v.AssetValue()
		return map[string]any{"asset": source(a.Path, a.URI, fmt.Sprintf("%d bytes of text", len(a.Text)))}
	case v.IsArchive():
		a := v.ArchiveValue()
		return map[string]any{"archive": source(a.Path, a.URI, fmt.Sprintf("%d members", len(a.Assets)))}
	case v.IsRef():
		r := v.RefValue()
		return map[string]any{"resource": r.URN, "id": encodeValue(r.ID)}
	}
	return nil
}

// encodeMap is a property map as the API sends it: an object of values.
func encodeMap(m resource.Map) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = encodeValue(v)
	}
	return out
}

// source says where an asset or archive comes from: its path or URI, or
// else what it holds.
func source(path, uri, held string) string {
	switch {
	case path != "":
		return path
	case uri != "":
		return uri
	}
	return held
}
