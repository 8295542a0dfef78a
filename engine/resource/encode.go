package resource

import (
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Signatures mark special values in their JSON and protobuf Struct forms: an
// object whose SigKey property holds one of these is not a plain object.
const (
	SigKey         = "4dabf18193072939515e22adb298388d"
	SecretSig      = "1b47061264138c4ac30d75fd1eb44270"
	ResourceRefSig = "5cf8f73096256a8f31e491e813e4eb8e"
	OutputSig      = "d0e6a833031e9bbcd3f4e8bde6ca49a4"
	AssetSig       = "c44067f5952c0a294b673a41bacd8c17"
	ArchiveSig     = "0def7320c3a5731c473e5ecbe6d01bc7"
	// ByteStringSig marks a string that is not valid UTF-8: {sig, "value":
	// base64 of its bytes}.
	ByteStringSig = "803fd3297a5875dc03ca845dda5d2a98"
	// FloatSig marks a number JSON cannot hold (NaN, ±Inf): {sig, "value":
	// the 16 hex digits of its IEEE 754 bits}. It is Cairn's: Pulumi
	// has none and cannot store such numbers.
	FloatSig = "8ad145fe-0d11-4827-bfd7-1abcbf086f5c"
)

// EncodeOptions say how values are written.
type EncodeOptions struct {
	// KeepUnknowns writes unknowns as the unknown sentinel; otherwise an
	// unknown is an error.
	KeepUnknowns bool
	// KeepSecrets writes secrets as secret objects; otherwise as their
	// elements.
	KeepSecrets bool
	// KeepResources writes references as reference objects; otherwise as their
	// ID (custom resources) or URN (components).
	KeepResources bool
	// KeepOutputValues writes outputs as output objects; otherwise as their
	// element, an unknown, or a secret.
	KeepOutputValues bool
	// RefNames writes a reference's name and type, read from its URN, beside
	// the URN, as Pulumi's wire protocol does (its state does not).
	RefNames bool
	// SkipNulls leaves null properties out of objects.
	SkipNulls bool
	// EncryptSecret, when set, writes a secret as the object it returns
	// (the state's {sig, ciphertext} form) instead of {sig, value}.
	EncryptSecret func(secret Value) (map[string]any, error)
	// NonFinite writes NaN and ±Inf as float objects, for JSON; otherwise
	// they are written as numbers.
	NonFinite bool
	// ByteStrings, when set, writes strings that are not valid UTF-8 as
	// byte-string objects, and is called for each (so a writer can declare
	// that it wrote some); otherwise they are written as they are.
	ByteStrings func()
}

// Encode converts v into JSON-shaped Go data (nil, bool, float64, string,
// []any, map[string]any) using Pulumi's signatures.
func Encode(v Value, o EncodeOptions) (any, error) {
	switch x := v.v.(type) {
	case nil, bool:
		return x, nil
	case float64:
		if o.NonFinite && (math.IsNaN(x) || math.IsInf(x, 0)) {
			return map[string]any{SigKey: FloatSig, "value": fmt.Sprintf("%016x", math.Float64bits(x))}, nil
		}
		return x, nil
	case string:
		if o.ByteStrings != nil && !utf8.ValidString(x) {
			o.ByteStrings()
			return map[string]any{SigKey: ByteStringSig, "value": base64.StdEncoding.EncodeToString([]byte(x))}, nil
		}
		return x, nil
	case []Value:
		out := make([]any, len(x))
		for i, e := range x {
			ev, err := Encode(e, o)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = ev
		}
		return out, nil
	case Map:
		return EncodeMap(x, o)
	case *Asset:
		return encodeAsset(x), nil
	case *Archive:
		return encodeArchive(x), nil
	case ResourceRef:
		if !o.KeepResources {
			if x.ID.IsNull() {
				return string(x.URN), nil
			}
			return Encode(x.ID, o)
		}
		m := map[string]any{SigKey: ResourceRefSig, "urn": string(x.URN)}
		if o.RefNames && x.URN.IsValid() {
			m["name"], m["type"] = x.URN.Name(), x.URN.Type()
		}
		if !x.ID.IsNull() {
			id, err := Encode(x.ID, o)
			if err != nil {
				return nil, err
			}
			if id == UnknownSentinel {
				id = ""
			}
			m["id"] = id
		}
		if x.PackageVersion != "" {
			m["packageVersion"] = x.PackageVersion
		}
		return m, nil
	case unknown:
		if !o.KeepUnknowns {
			return nil, fmt.Errorf("the value is unknown")
		}
		return UnknownSentinel, nil
	case *secret:
		if !o.KeepSecrets {
			return Encode(x.elem(), o)
		}
		if o.EncryptSecret != nil {
			return o.EncryptSecret(v)
		}
		inner, err := Encode(x.elem(), o)
		if err != nil {
			return nil, err
		}
		return map[string]any{SigKey: SecretSig, "value": inner}, nil
	case *Output:
		if !o.KeepOutputValues {
			return Encode(Value{x}.Resolve(), o)
		}
		m := map[string]any{SigKey: OutputSig}
		if x.Known {
			inner, err := Encode(x.Element, o)
			if err != nil {
				return nil, err
			}
			m["value"] = inner
		}
		if x.Secret {
			m["secret"] = true
		}
		if len(x.Dependencies) > 0 {
			deps := make([]any, len(x.Dependencies))
			for i, d := range x.Dependencies {
				deps[i] = string(d)
			}
			m["dependencies"] = deps
		}
		return m, nil
	}
	return nil, fmt.Errorf("cannot encode %T", v.v)
}

// EncodeMap converts a property map (see Encode).
func EncodeMap(m Map, o EncodeOptions) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for _, k := range m.SortedKeys() {
		e := m[k]
		if o.SkipNulls && e.IsNull() {
			continue
		}
		ev, err := Encode(e, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = ev
	}
	return out, nil
}

func encodeAsset(a *Asset) map[string]any {
	m := map[string]any{SigKey: AssetSig}
	if a.Hash != "" {
		m["hash"] = a.Hash
	}
	switch {
	case a.Path != "":
		m["path"] = a.Path
	case a.URI != "":
		m["uri"] = a.URI
	default:
		m["text"] = a.Text
	}
	return m
}

func encodeArchive(a *Archive) map[string]any {
	m := map[string]any{SigKey: ArchiveSig}
	if a.Hash != "" {
		m["hash"] = a.Hash
	}
	switch {
	case a.Path != "":
		m["path"] = a.Path
	case a.URI != "":
		m["uri"] = a.URI
	default:
		assets := make(map[string]any, len(a.Assets))
		for k, e := range a.Assets {
			switch e := e.(type) {
			case *Asset:
				assets[k] = encodeAsset(e)
			case *Archive:
				assets[k] = encodeArchive(e)
			}
		}
		m["assets"] = assets
	}
	return m
}

// DecodeOptions say how values are read.
type DecodeOptions struct {
	// DecryptSecret, when set, reads a secret object that has no "value"
	// (the state's {sig, ciphertext} form).
	DecryptSecret func(obj map[string]any) (Value, error)
	// UnknownsAsStrings reads the unknown sentinels as plain strings.
	UnknownsAsStrings bool
}

// unknownSentinels are the sentinels of unknown values of each type.
var unknownSentinels = map[string]bool{
	UnknownSentinel:                        true,
	"1c4a061d-8072-4f0a-a4cb-0ff528b18fe7": true, // bool
	"3eeb2bf0-c639-47a8-9e75-3b44932eb421": true, // number
	"6a19a0b0-7e62-4c92-b797-7f8e31da9cc2": true, // array
	"030794c1-ac77-496b-92df-f27374a8bd58": true, // asset
	"e48ece36-62e2-4504-bad9-02848725956a": true, // archive
	"dd056dcd-154b-4c76-9bd3-c8f88648b5ff": true, // object
}

// Decode converts JSON-shaped Go data written with Pulumi's signatures
// back into a Value. Integers of any Go type are accepted as numbers.
func Decode(x any, o DecodeOptions) (Value, error) {
	switch x := x.(type) {
	case nil:
		return Null, nil
	case bool:
		return Bool(x), nil
	case float64:
		return Number(x), nil
	case float32:
		return Number(float64(x)), nil
	case int:
		return Number(float64(x)), nil
	case int64:
		return Number(float64(x)), nil
	case string:
		return DecodeString(x, o), nil
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			v, err := Decode(e, o)
			if err != nil {
				return Null, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = v
		}
		return Array(out...), nil
	case map[string]any:
		sig, special := x[SigKey]
		if !special {
			m, err := DecodeMap(x, o)
			return Object(m), err
		}
		return decodeSpecial(sig, x, o)
	}
	return Null, fmt.Errorf("cannot decode %T", x)
}

// DecodeString converts a string (see Decode): an unknown sentinel is
// unknown unless o.UnknownsAsStrings.
func DecodeString(s string, o DecodeOptions) Value {
	if !o.UnknownsAsStrings && unknownSentinels[s] {
		return Unknown()
	}
	return String(s)
}

// DecodeMap converts an object (see Decode).
func DecodeMap(x map[string]any, o DecodeOptions) (Map, error) {
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := make(Map, len(x))
	for _, k := range keys {
		v, err := Decode(x[k], o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		m[k] = v
	}
	return m, nil
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func decodeSpecial(sig any, x map[string]any, o DecodeOptions) (Value, error) {
	switch sig {
	case SecretSig:
		if inner, ok := x["value"]; ok {
			v, err := Decode(inner, o)
			return MakeSecret(v), err
		}
		if o.DecryptSecret != nil {
			v, err := o.DecryptSecret(x)
			if err != nil {
				return Null, err
			}
			return MakeSecret(v), nil
		}
		return Null, fmt.Errorf("a secret has no value and cannot be decrypted here")
	case ResourceRefSig:
		urn := str(x, "urn")
		if urn == "" {
			return Null, fmt.Errorf("a resource reference has no URN")
		}
		ref := ResourceRef{URN: URN(urn), PackageVersion: str(x, "packageVersion")}
		if id, ok := x["id"]; ok {
			switch s, _ := id.(string); {
			case s == "" || unknownSentinels[s]:
				ref.ID = Unknown()
			default:
				ref.ID = String(s)
			}
		}
		return NewRef(ref), nil
	case OutputSig:
		out := Output{Known: false}
		if inner, ok := x["value"]; ok {
			v, err := Decode(inner, o)
			if err != nil {
				return Null, err
			}
			out.Element, out.Known = v, true
		}
		out.Secret, _ = x["secret"].(bool)
		if deps, ok := x["dependencies"].([]any); ok {
			for _, d := range deps {
				if s, ok := d.(string); ok {
					out.Dependencies = append(out.Dependencies, URN(s))
				}
			}
		}
		return NewOutput(out), nil
	case ByteStringSig:
		b, err := base64.StdEncoding.DecodeString(str(x, "value"))
		if err != nil {
			return Null, fmt.Errorf("malformed byte string %q: want base64", str(x, "value"))
		}
		return String(string(b)), nil
	case FloatSig:
		bits, err := strconv.ParseUint(str(x, "value"), 16, 64)
		if err != nil {
			return Null, fmt.Errorf("malformed float value %q: want 16 hex digits", str(x, "value"))
		}
		return Number(math.Float64frombits(bits)), nil
	case AssetSig:
		return NewAsset(decodeAsset(x)), nil
	case ArchiveSig:
		a, err := decodeArchive(x)
		return NewArchive(a), err
	}
	return Null, fmt.Errorf("unknown value signature %v", sig)
}

func decodeAsset(x map[string]any) *Asset {
	return &Asset{Hash: str(x, "hash"), Text: str(x, "text"), Path: str(x, "path"), URI: str(x, "uri")}
}

func decodeArchive(x map[string]any) (*Archive, error) {
	a := &Archive{Hash: str(x, "hash"), Path: str(x, "path"), URI: str(x, "uri")}
	if assets, ok := x["assets"].(map[string]any); ok {
		a.Assets = make(map[string]any, len(assets))
		for k, e := range assets {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("archive member %q is not an asset or archive", k)
			}
			switch m[SigKey] {
			case AssetSig:
				a.Assets[k] = decodeAsset(m)
			case ArchiveSig:
				sub, err := decodeArchive(m)
				if err != nil {
					return nil, err
				}
				a.Assets[k] = sub
			default:
				return nil, fmt.Errorf("archive member %q is not an asset or archive", k)
			}
		}
	}
	return a, nil
}
