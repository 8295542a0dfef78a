package rpc

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Options says what the receiving side of a conversion accepts. The zero
// Options downgrades everything: secrets to plain values, references to IDs,
// outputs to their elements, and leaves unknowns out.
type Options struct {
	// KeepUnknowns keeps unknown values (written as the unknown sentinel).
	KeepUnknowns bool
	// RejectUnknowns makes an unknown value an error instead of leaving it
	// out; it matters only without KeepUnknowns.
	RejectUnknowns bool
	// KeepSecrets keeps secrets as secret objects.
	KeepSecrets bool
	// KeepResources keeps resource references as reference objects.
	KeepResources bool
	// KeepOutputValues keeps output values as output objects.
	KeepOutputValues bool
	// ComputeAssetHashes fills in the hash of every asset and archive that has
	// none, reading relative paths from WorkingDirectory.
	ComputeAssetHashes bool
	WorkingDirectory   string
}

// Everything accepts every kind of value: what the engine uses to read what
// SDKs and providers send it.
var Everything = Options{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true}

// MarshalValue converts v into its wire form. It returns nil when v is an
// unknown that o leaves out. Plain values (scalars, arrays, objects) are
// written straight into protobuf values; special ones go through Pulumi's
// signature encoding.
func MarshalValue(v resource.Value, o Options) (*structpb.Value, error) {
	switch v.Kind() {
	case resource.NullKind:
		return structpb.NewNullValue(), nil
	case resource.BoolKind:
		return structpb.NewBoolValue(v.BoolValue()), nil
	case resource.NumberKind:
		return structpb.NewNumberValue(v.NumberValue()), nil
	case resource.StringKind:
		if err := validUTF8(v.StringValue()); err != nil {
			return nil, err
		}
		return structpb.NewStringValue(v.StringValue()), nil
	case resource.ArrayKind:
		in := v.ArrayValue()
		out := make([]*structpb.Value, 0, len(in))
		for i, e := range in {
			pv, err := MarshalValue(e, o)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			if pv != nil {
				out = append(out, pv)
			}
		}
		return structpb.NewListValue(&structpb.ListValue{Values: out}), nil
	case resource.ObjectKind:
		s, err := marshalFields(v.ObjectValue(), o, "%s: %w")
		if err != nil {
			return nil, err
		}
		return structpb.NewStructValue(s), nil
	}
	w, keep, err := o.negotiate(v)
	if err != nil || !keep {
		return nil, err
	}
	x, err := resource.Encode(w, encodeAll)
	if err != nil {
		return nil, err
	}
	return structpb.NewValue(x)
}

// MarshalMap converts a property map into a Struct; a nil map gives a nil
// Struct, so that "no properties" and "empty properties" stay apart.
func MarshalMap(m resource.Map, o Options) (*structpb.Struct, error) {
	if m == nil {
		return nil, nil
	}
	return marshalFields(m, o, "property %s: %w")
}

// marshalFields converts the properties of m, leaving out those that o
// leaves out. An error names the first failing property in key order, with
// format.
func marshalFields(m resource.Map, o Options, format string) (*structpb.Struct, error) {
	fields := make(map[string]*structpb.Value, len(m))
	var errs firstError
	for k, v := range m {
		if err := validUTF8(k); err != nil {
			errs.add(k, err)
			continue
		}
		pv, err := MarshalValue(v, o)
		switch {
		case err != nil:
			errs.add(k, err)
		case pv != nil:
			fields[k] = pv
		}
	}
	if errs.err != nil {
		return nil, fmt.Errorf(format, errs.key, errs.err)
	}
	return &structpb.Struct{Fields: fields}, nil
}

// validUTF8 fails for a string protobuf cannot carry.
func validUTF8(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("invalid UTF-8 in string: %q", s)
	}
	return nil
}

// firstError keeps the error of the least key, so that walking a map in
// any order reports the same error.
type firstError struct {
	key string
	err error
}

func (f *firstError) add(key string, err error) {
	if f.err == nil || key < f.key {
		f.key, f.err = key, err
	}
}

// UnmarshalValue converts a wire value into an engine value. The second
// result is false when the value is an unknown that o leaves out. Plain
// values are read straight from protobuf values; objects with a signature
// go through Pulumi's signature decoding.
func UnmarshalValue(pv *structpb.Value, o Options) (resource.Value, bool, error) {
	switch k := pv.GetKind().(type) {
	case *structpb.Value_BoolValue:
		return resource.Bool(k.BoolValue), true, nil
	case *structpb.Value_NumberValue:
		return resource.Number(k.NumberValue), true, nil
	case *structpb.Value_ListValue:
		in := k.ListValue.GetValues()
		out := make([]resource.Value, 0, len(in))
		for i, e := range in {
			v, keep, err := UnmarshalValue(e, o)
			if err != nil {
				return resource.Null, false, fmt.Errorf("[%d]: %w", i, err)
			}
			if keep {
				out = append(out, v)
			}
		}
		return resource.Array(out...), true, nil
	case *structpb.Value_StructValue:
		if _, special := k.StructValue.GetFields()[resource.SigKey]; !special {
			m, err := unmarshalFields(k.StructValue, o, "%s: %w")
			return resource.Object(m), err == nil, err
		}
	}
	v, err := resource.Decode(pv.AsInterface(), resource.DecodeOptions{})
	if err != nil {
		return resource.Null, false, err
	}
	return o.negotiate(v)
}

// UnmarshalMap converts a Struct into a property map; a nil Struct gives a
// nil map.
func UnmarshalMap(s *structpb.Struct, o Options) (resource.Map, error) {
	if s == nil {
		return nil, nil
	}
	return unmarshalFields(s, o, "property %s: %w")
}

// unmarshalFields converts the fields of s, leaving out those that o leaves
// out. An error names the first failing field in key order, with format.
func unmarshalFields(s *structpb.Struct, o Options, format string) (resource.Map, error) {
	m := make(resource.Map, len(s.GetFields()))
	var errs firstError
	for k, pv := range s.GetFields() {
		v, keep, err := UnmarshalValue(pv, o)
		switch {
		case err != nil:
			errs.add(k, err)
		case keep:
			m[k] = v
		}
	}
	if errs.err != nil {
		return nil, fmt.Errorf(format, errs.key, errs.err)
	}
	return m, nil
}

// encodeAll writes every kind of value: negotiate has already downgraded
// what the receiver does not accept.
var encodeAll = resource.EncodeOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true, RefNames: true}

// negotiate downgrades v to what o accepts. It reports false when v is an
// unknown to leave out.
func (o Options) negotiate(v resource.Value) (resource.Value, bool, error) {
	switch v.Kind() {
	case resource.UnknownKind:
		switch {
		case o.KeepUnknowns:
			return v, true, nil
		case o.RejectUnknowns:
			return v, false, fmt.Errorf("the value is unknown, and unknown values are only allowed during a preview")
		}
		return v, false, nil
	case resource.SecretKind:
		e, keep, err := o.negotiate(v.SecretElement())
		if err != nil || !keep || !o.KeepSecrets {
			return e, keep, err
		}
		return resource.MakeSecret(e), true, nil
	case resource.OutputKind:
		if !o.KeepOutputValues {
			return o.negotiate(v.Resolve())
		}
		out := v.OutputValue()
		if out.Known {
			e, keep, err := o.negotiate(out.Element)
			if err != nil {
				return v, false, err
			}
			out.Element, out.Known = e, keep
		}
		return resource.NewOutput(out), true, nil
	case resource.ResourceRefKind:
		ref := v.RefValue()
		switch {
		case !o.KeepResources && ref.ID.IsNull():
			return resource.String(string(ref.URN)), true, nil
		case !o.KeepResources:
			return o.negotiate(ref.ID)
		}
		return v, true, nil
	case resource.ArrayKind:
		return o.negotiateArray(v)
	case resource.ObjectKind:
		m, err := o.negotiateMap(v.ObjectValue())
		return resource.Object(m), err == nil, err
	case resource.AssetKind:
		if !o.ComputeAssetHashes || v.AssetValue().Hash != "" {
			return v, true, nil
		}
		a := *v.AssetValue()
		return resource.NewAsset(&a), true, a.EnsureHash(o.WorkingDirectory)
	case resource.ArchiveKind:
		if !o.ComputeAssetHashes || v.ArchiveValue().Hash != "" {
			return v, true, nil
		}
		a := copyArchive(v.ArchiveValue())
		return resource.NewArchive(a), true, a.EnsureHash(o.WorkingDirectory)
	}
	return v, true, nil
}

func (o Options) negotiateArray(v resource.Value) (resource.Value, bool, error) {
	in := v.ArrayValue()
	out := make([]resource.Value, 0, len(in))
	for i, e := range in {
		w, keep, err := o.negotiate(e)
		if err != nil {
			return v, false, fmt.Errorf("[%d]: %w", i, err)
		}
		if keep {
			out = append(out, w)
		}
	}
	return resource.Array(out...), true, nil
}

func (o Options) negotiateMap(m resource.Map) (resource.Map, error) {
	out := make(resource.Map, len(m))
	for _, k := range m.SortedKeys() {
		w, keep, err := o.negotiate(m[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		if keep {
			out[k] = w
		}
	}
	return out, nil
}

// copyArchive copies an archive and its members, so that computing hashes
// does not write to values that others share.
func copyArchive(a *resource.Archive) *resource.Archive {
	c := *a
	if a.Assets != nil {
		c.Assets = make(map[string]any, len(a.Assets))
		for k, m := range a.Assets {
			switch m := m.(type) {
			case *resource.Asset:
				ac := *m
				c.Assets[k] = &ac
			case *resource.Archive:
				c.Assets[k] = copyArchive(m)
			default:
				c.Assets[k] = m
			}
		}
	}
	return &c
}
