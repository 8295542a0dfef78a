package resource

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is the kind of a Value.
type Kind uint8

// The kinds of values exchanged between programs, the engine and providers.
const (
	NullKind Kind = iota
	BoolKind
	NumberKind
	StringKind
	ArrayKind
	ObjectKind
	AssetKind
	ArchiveKind
	ResourceRefKind
	UnknownKind
	SecretKind
	OutputKind
)

var kindNames = [...]string{"null", "bool", "number", "string", "array", "object", "asset", "archive",
	"resource reference", "unknown", "secret", "output"}

func (k Kind) String() string { return kindNames[k] }

// Value is one property value: null, bool, number, string, array, object,
// asset, archive, resource reference, unknown, secret or output. The zero
// Value is null. Values are immutable once built: functions that change a
// value return a new one.
type Value struct {
	v any
}

// Map is an object's properties by name.
type Map map[string]Value

// unknown is the payload of an unknown value.
type unknown struct{}

// secret is the payload of a secret value. A secret read from a state (or
// sealed for one) also keeps its ciphertext, and one read but not yet needed
// is opened (decrypted) only when its element is first read.
type secret struct {
	element Value
	sealed  *sealed
}

// sealed is a secret's ciphertext, the name of the key that sealed it, and
// how to open it while it has not been.
type sealed struct {
	ciphertext, key string
	once            sync.Once
	open            func() Value
	opened          atomic.Bool
}

// elem returns the secret's element, opening it if it has not been.
func (s *secret) elem() Value {
	if c := s.sealed; c != nil && !c.opened.Load() {
		c.once.Do(func() {
			s.element = c.open()
			c.open = nil
			c.opened.Store(true)
		})
	}
	return s.element
}

// Null is the null value.
var Null = Value{}

// Bool returns a bool value.
func Bool(b bool) Value { return Value{b} }

// Number returns a number value.
func Number(f float64) Value { return Value{f} }

// String returns a string value.
func String(s string) Value { return Value{s} }

// Array returns an array value holding vs.
func Array(vs ...Value) Value {
	if vs == nil {
		vs = []Value{}
	}
	return Value{vs}
}

// Object returns an object value holding m.
func Object(m Map) Value {
	if m == nil {
		m = Map{}
	}
	return Value{m}
}

// NewAsset returns an asset value.
func NewAsset(a *Asset) Value { return Value{a} }

// NewArchive returns an archive value.
func NewArchive(a *Archive) Value { return Value{a} }

// NewRef returns a resource reference value.
func NewRef(r ResourceRef) Value { return Value{r} }

// Unknown returns a value whose type and contents are not known yet.
func Unknown() Value { return Value{unknown{}} }

// MakeSecret wraps v as a secret. Secrets do not nest: a secret of a secret is
// the same secret.
func MakeSecret(v Value) Value {
	if v.IsSecret() {
		return v
	}
	return Value{&secret{element: v}}
}

// SealedSecret returns a secret kept as its ciphertext, sealed under the key
// named key, whose element open returns when it is first read, once however
// many goroutines read it. open cannot fail: it reports its own errors and
// returns what stands for the element then (an unknown). Until then the
// secret's strings are not reported by SecretStrings, so whoever must learn
// them (a masker) learns them in open.
func SealedSecret(ciphertext, key string, open func() Value) Value {
	return Value{&secret{sealed: &sealed{ciphertext: ciphertext, key: key, open: open}}}
}

// SecretWithCiphertext returns a secret of element whose ciphertext under
// the key named key is known: read from a state, or sealed for one.
func SecretWithCiphertext(element Value, ciphertext, key string) Value {
	c := &sealed{ciphertext: ciphertext, key: key}
	c.once.Do(func() {})
	c.opened.Store(true)
	return Value{&secret{element: element.unwrapSecret(), sealed: c}}
}

func (v Value) unwrapSecret() Value {
	if x, ok := v.v.(*secret); ok {
		return x.elem()
	}
	return v
}

// Ciphertext returns the ciphertext of a secret read from a state or sealed
// for one, and the name of the key it is sealed under; ok is false for any
// other value. Equal ciphertexts under one key hold equal elements.
func (v Value) Ciphertext() (ciphertext, key string, ok bool) {
	x, isSecret := v.v.(*secret)
	if !isSecret || x.sealed == nil {
		return "", "", false
	}
	return x.sealed.ciphertext, x.sealed.key, true
}

// NewOutput returns an output value.
func NewOutput(o Output) Value { return Value{&o} }

// Kind returns the kind of v.
func (v Value) Kind() Kind {
	switch v.v.(type) {
	case nil:
		return NullKind
	case bool:
		return BoolKind
	case float64:
		return NumberKind
	case string:
		return StringKind
	case []Value:
		return ArrayKind
	case Map:
		return ObjectKind
	case *Asset:
		return AssetKind
	case *Archive:
		return ArchiveKind
	case ResourceRef:
		return ResourceRefKind
	case unknown:
		return UnknownKind
	case *secret:
		return SecretKind
	case *Output:
		return OutputKind
	}
	panic(fmt.Sprintf("resource.Value holds %T", v.v))
}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.v == nil }

// IsBool reports whether v is a bool.
func (v Value) IsBool() bool { _, ok := v.v.(bool); return ok }

// IsNumber reports whether v is a number.
func (v Value) IsNumber() bool { _, ok := v.v.(float64); return ok }

// IsString reports whether v is a string.
func (v Value) IsString() bool { _, ok := v.v.(string); return ok }

// IsArray reports whether v is an array.
func (v Value) IsArray() bool { _, ok := v.v.([]Value); return ok }

// IsObject reports whether v is an object.
func (v Value) IsObject() bool { _, ok := v.v.(Map); return ok }

// IsAsset reports whether v is an asset.
func (v Value) IsAsset() bool { _, ok := v.v.(*Asset); return ok }

// IsArchive reports whether v is an archive.
func (v Value) IsArchive() bool { _, ok := v.v.(*Archive); return ok }

// IsRef reports whether v is a resource reference.
func (v Value) IsRef() bool { _, ok := v.v.(ResourceRef); return ok }

// IsUnknown reports whether v itself is unknown (not whether it contains one).
func (v Value) IsUnknown() bool { _, ok := v.v.(unknown); return ok }

// IsSecret reports whether v is a secret.
func (v Value) IsSecret() bool { _, ok := v.v.(*secret); return ok }

// IsOutput reports whether v is an output value.
func (v Value) IsOutput() bool { _, ok := v.v.(*Output); return ok }

// BoolValue returns v's bool; it panics if v is not a bool.
func (v Value) BoolValue() bool { return v.v.(bool) }

// NumberValue returns v's number; it panics if v is not a number.
func (v Value) NumberValue() float64 { return v.v.(float64) }

// StringValue returns v's string; it panics if v is not a string.
func (v Value) StringValue() string { return v.v.(string) }

// ArrayValue returns v's elements; it panics if v is not an array. Callers must
// not modify the slice.
func (v Value) ArrayValue() []Value { return v.v.([]Value) }

// ObjectValue returns v's properties; it panics if v is not an object. Callers
// must not modify the map.
func (v Value) ObjectValue() Map { return v.v.(Map) }

// AssetValue returns v's asset; it panics if v is not an asset.
func (v Value) AssetValue() *Asset { return v.v.(*Asset) }

// ArchiveValue returns v's archive; it panics if v is not an archive.
func (v Value) ArchiveValue() *Archive { return v.v.(*Archive) }

// RefValue returns v's resource reference; it panics if v is not one.
func (v Value) RefValue() ResourceRef { return v.v.(ResourceRef) }

// SecretElement returns the value a secret wraps; it panics if v is not a secret.
// A sealed secret is opened by the first call.
func (v Value) SecretElement() Value { return v.v.(*secret).elem() }

// OutputValue returns v's output; it panics if v is not an output.
func (v Value) OutputValue() Output { return *v.v.(*Output) }

// Output is a value that may be unknown or secret and carries the resources it
// was computed from.
type Output struct {
	Element      Value // meaningful only when Known
	Known        bool
	Secret       bool
	Dependencies []URN
}

// ResourceRef refers to a resource by URN; custom resources also carry their
// ID, which may be unknown during a preview.
type ResourceRef struct {
	URN            URN
	ID             Value // a string, or unknown; null for component resources
	PackageVersion string
}

// ContainsUnknowns reports whether v is or contains an unknown value (an
// unknown output or a reference with an unknown ID counts).
func (v Value) ContainsUnknowns() bool {
	switch x := v.v.(type) {
	case unknown:
		return true
	case []Value:
		for _, e := range x {
			if e.ContainsUnknowns() {
				return true
			}
		}
	case Map:
		return x.ContainsUnknowns()
	case *secret:
		return x.elem().ContainsUnknowns()
	case *Output:
		return !x.Known || x.Element.ContainsUnknowns()
	case ResourceRef:
		return x.ID.IsUnknown()
	}
	return false
}

// ContainsSecrets reports whether v is or contains a secret.
func (v Value) ContainsSecrets() bool {
	switch x := v.v.(type) {
	case *secret:
		return true
	case []Value:
		for _, e := range x {
			if e.ContainsSecrets() {
				return true
			}
		}
	case Map:
		return x.ContainsSecrets()
	case *Output:
		return x.Secret || x.Element.ContainsSecrets()
	}
	return false
}

// ContainsUnknowns reports whether any property is or contains an unknown.
func (m Map) ContainsUnknowns() bool {
	for _, e := range m {
		if e.ContainsUnknowns() {
			return true
		}
	}
	return false
}

// ContainsSecrets reports whether any property is or contains a secret.
func (m Map) ContainsSecrets() bool {
	for _, e := range m {
		if e.ContainsSecrets() {
			return true
		}
	}
	return false
}

// SecretStrings calls f with every string inside a secret in v (the
// strings a display must not show), but not inside a sealed secret not
// opened yet (see SealedSecret).
func (v Value) SecretStrings(f func(string)) { v.secretStrings(false, f) }

// SecretStrings calls f with every string inside a secret in m.
func (m Map) SecretStrings(f func(string)) {
	for _, e := range m {
		e.secretStrings(false, f)
	}
}

func (v Value) secretStrings(in bool, f func(string)) {
	switch x := v.v.(type) {
	case string:
		if in {
			f(x)
		}
	case []Value:
		for _, e := range x {
			e.secretStrings(in, f)
		}
	case Map:
		for _, e := range x {
			e.secretStrings(in, f)
		}
	case *secret:
		if x.sealed == nil || x.sealed.opened.Load() {
			x.elem().secretStrings(true, f)
		}
	case *Output:
		x.Element.secretStrings(in || x.Secret, f)
	}
}

// Equal reports whether v and w are the same value. Secrets equal secrets of
// equal elements; unknowns equal only unknowns; assets and archives compare by
// hash when both have one.
func (v Value) Equal(w Value) bool {
	switch x := v.v.(type) {
	case nil:
		return w.v == nil
	case bool:
		y, ok := w.v.(bool)
		return ok && x == y
	case float64:
		y, ok := w.v.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case string:
		y, ok := w.v.(string)
		return ok && x == y
	case []Value:
		y, ok := w.v.([]Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !x[i].Equal(y[i]) {
				return false
			}
		}
		return true
	case Map:
		y, ok := w.v.(Map)
		return ok && x.Equal(y)
	case *Asset:
		y, ok := w.v.(*Asset)
		return ok && x.Equal(y)
	case *Archive:
		y, ok := w.v.(*Archive)
		return ok && x.Equal(y)
	case ResourceRef:
		y, ok := w.v.(ResourceRef)
		return ok && x.URN == y.URN && x.ID.Equal(y.ID) && x.PackageVersion == y.PackageVersion
	case unknown:
		return w.IsUnknown()
	case *secret:
		y, ok := w.v.(*secret)
		return ok && x.elem().Equal(y.elem())
	case *Output:
		y, ok := w.v.(*Output)
		if !ok || x.Known != y.Known || x.Secret != y.Secret || len(x.Dependencies) != len(y.Dependencies) {
			return false
		}
		for i := range x.Dependencies {
			if x.Dependencies[i] != y.Dependencies[i] {
				return false
			}
		}
		return !x.Known || x.Element.Equal(y.Element)
	}
	return false
}

// Equal reports whether m and n hold equal values under the same keys. A
// missing key and a null value are the same.
func (m Map) Equal(n Map) bool {
	for k, v := range m {
		if !v.Equal(n[k]) {
			return false
		}
	}
	for k, v := range n {
		if _, ok := m[k]; !ok && !v.IsNull() {
			return false
		}
	}
	return true
}

// SortedKeys returns m's keys in order.
func (m Map) SortedKeys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Copy returns a shallow copy of m.
func (m Map) Copy() Map {
	if m == nil {
		return nil
	}
	c := make(Map, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Unsecret returns v with every secret replaced by its element, and outputs by
// their elements (unknown when not known).
func (v Value) Unsecret() Value {
	switch x := v.v.(type) {
	case *secret:
		return x.elem().Unsecret()
	case []Value:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = e.Unsecret()
		}
		return Value{out}
	case Map:
		return Value{x.Unsecret()}
	case *Output:
		if !x.Known {
			return Unknown()
		}
		return x.Element.Unsecret()
	}
	return v
}

// Unsecret returns m with every secret replaced by its element.
func (m Map) Unsecret() Map {
	out := make(Map, len(m))
	for k, e := range m {
		out[k] = e.Unsecret()
	}
	return out
}

// Resolve returns v with outputs replaced by what they stand for: their element
// (wrapped as secret when the output is secret), or unknown.
func (v Value) Resolve() Value {
	switch x := v.v.(type) {
	case *Output:
		e := Unknown()
		if x.Known {
			e = x.Element.Resolve()
		}
		if x.Secret {
			return MakeSecret(e)
		}
		return e
	case *secret:
		return MakeSecret(x.elem().Resolve())
	case []Value:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = e.Resolve()
		}
		return Value{out}
	case Map:
		return Value{x.Resolve()}
	}
	return v
}

// Resolve returns m with outputs replaced by what they stand for.
func (m Map) Resolve() Map {
	out := make(Map, len(m))
	for k, e := range m {
		out[k] = e.Resolve()
	}
	return out
}

// String renders v for messages and debugging; secrets are masked.
func (v Value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v Value) write(b *strings.Builder) {
	switch x := v.v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case float64:
		b.WriteString(FormatNumber(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case []Value:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
		b.WriteByte(']')
	case Map:
		b.WriteByte('{')
		for i, k := range x.SortedKeys() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(": ")
			x[k].write(b)
		}
		b.WriteByte('}')
	case *Asset:
		fmt.Fprintf(b, "asset(%s)", x.describe())
	case *Archive:
		fmt.Fprintf(b, "archive(%s)", x.describe())
	case ResourceRef:
		fmt.Fprintf(b, "ref(%s)", x.URN)
	case unknown:
		b.WriteString("(unknown)")
	case *secret:
		b.WriteString("[secret]")
	case *Output:
		switch {
		case x.Secret:
			b.WriteString("[secret]")
		case !x.Known:
			b.WriteString("(unknown)")
		default:
			x.Element.write(b)
		}
	}
}

// FormatNumber renders a number the way JSON would: integers without a
// fraction, others in the shortest form that round-trips.
func FormatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// FromGo converts plain Go data (nil, bool, numbers, string, []any,
// map[string]any, and Values) into a Value. It panics on other types; it is
// meant for tests and providers building literal values.
func FromGo(x any) Value {
	switch x := x.(type) {
	case nil:
		return Null
	case Value:
		return x
	case bool:
		return Bool(x)
	case int:
		return Number(float64(x))
	case int64:
		return Number(float64(x))
	case float64:
		return Number(x)
	case string:
		return String(x)
	case []string:
		vs := make([]Value, len(x))
		for i, e := range x {
			vs[i] = String(e)
		}
		return Array(vs...)
	case []any:
		vs := make([]Value, len(x))
		for i, e := range x {
			vs[i] = FromGo(e)
		}
		return Array(vs...)
	case []Value:
		return Array(x...)
	case map[string]any:
		return Object(MapFromGo(x))
	case Map:
		return Object(x)
	case *Asset:
		return NewAsset(x)
	case *Archive:
		return NewArchive(x)
	case ResourceRef:
		return NewRef(x)
	}
	panic(fmt.Sprintf("resource.FromGo: unsupported %T", x))
}

// MapFromGo converts a Go map into a Map (see FromGo).
func MapFromGo(m map[string]any) Map {
	out := make(Map, len(m))
	for k, v := range m {
		out[k] = FromGo(v)
	}
	return out
}

// ToGo converts v into plain Go data: nil, bool, float64, string, []any and
// map[string]any. Secrets become their elements; unknowns, assets, archives and
// references are returned as their Go payloads (*Asset, *Archive, ResourceRef)
// or, for unknowns, as the Unknown sentinel.
func (v Value) ToGo() any {
	switch x := v.v.(type) {
	case []Value:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e.ToGo()
		}
		return out
	case Map:
		return x.ToGo()
	case *secret:
		return x.elem().ToGo()
	case *Output:
		if !x.Known {
			return UnknownSentinel
		}
		return x.Element.ToGo()
	case unknown:
		return UnknownSentinel
	}
	return v.v
}

// ToGo converts m into a map[string]any (see Value.ToGo).
func (m Map) ToGo() map[string]any {
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = e.ToGo()
	}
	return out
}

// UnknownSentinel is the string the wire uses for an unknown value; ToGo
// renders unknowns as it.
const UnknownSentinel = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
