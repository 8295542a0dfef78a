package props

import "github.com/cairn-iac/cairn/engine/resource"

// The getters below read a checked property. Secrets are read through; a
// property that is absent, null, unknown or of another type reads as not set.

// String returns the string property k of m.
func String(m resource.Map, k string) (string, bool) {
	v := plain(m[k])
	if !v.IsString() {
		return "", false
	}
	return v.StringValue(), true
}

// Int returns the whole-number property k of m.
func Int(m resource.Map, k string) (int64, bool) {
	v := plain(m[k])
	if !v.IsNumber() {
		return 0, false
	}
	return int64(v.NumberValue()), true
}

// Bool returns the bool property k of m.
func Bool(m resource.Map, k string) (bool, bool) {
	v := plain(m[k])
	if !v.IsBool() {
		return false, false
	}
	return v.BoolValue(), true
}

// Strings returns the list-of-strings property k of m; elements that are not
// strings are left out.
func Strings(m resource.Map, k string) ([]string, bool) {
	v := plain(m[k])
	if !v.IsArray() {
		return nil, false
	}
	out := make([]string, 0, len(v.ArrayValue()))
	for _, e := range v.ArrayValue() {
		if e = plain(e); e.IsString() {
			out = append(out, e.StringValue())
		}
	}
	return out, true
}

// StringMap returns the map-of-strings property k of m; entries that are not
// strings are left out.
func StringMap(m resource.Map, k string) (map[string]string, bool) {
	v := plain(m[k])
	if !v.IsObject() {
		return nil, false
	}
	out := map[string]string{}
	for key, e := range v.ObjectValue() {
		if e = plain(e); e.IsString() {
			out[key] = e.StringValue()
		}
	}
	return out, true
}

func plain(v resource.Value) resource.Value {
	if v.IsSecret() {
		return v.SecretElement()
	}
	return v
}
