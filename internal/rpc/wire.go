package rpc

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/cairn-iac/cairn/engine/resource"
)

// AppendMap appends m to b as field num of a message, a Struct in
// protobuf's wire format: what proto.Marshal writes for MarshalMap's
// result, without building the Struct first. Plain values are written
// directly; special ones (secrets, references, unknowns, outputs, assets,
// archives) through MarshalValue. A nil map appends nothing.
func AppendMap(b []byte, num protowire.Number, m resource.Map, o Options) ([]byte, error) {
	if m == nil {
		return b, nil
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return appendMessage(b, func(b []byte) ([]byte, error) { return appendFields(b, m, o, "property %s: %w") })
}

// Property is a property map of a message: its field, and how it is sent.
type Property struct {
	Field protoreflect.Name
	Map   resource.Map
	Opts  Options
}

// WithProperties sets msg's property maps, written straight into
// protobuf's wire format (AppendMap) as msg's unknown fields, which
// proto.Marshal sends as they are: the receiver reads them as msg's Struct
// fields, and no Struct is built on the way.
func WithProperties[M proto.Message](msg M, props ...Property) (M, error) {
	fields := msg.ProtoReflect().Descriptor().Fields()
	var b []byte
	for _, p := range props {
		var err error
		if b, err = AppendMap(b, fields.ByName(p.Field).Number(), p.Map, p.Opts); err != nil {
			return msg, err
		}
	}
	msg.ProtoReflect().SetUnknown(b)
	return msg, nil
}

// Field numbers of google.protobuf.Struct, Value and ListValue.
const (
	structFields    = 1
	entryKey        = 1
	entryValue      = 2
	valueNull       = 1
	valueNumber     = 2
	valueString     = 3
	valueBool       = 4
	valueStruct     = 5
	valueList       = 6
	listValueValues = 1
)

// appendMessage appends a length-prefixed message whose body body appends.
func appendMessage(b []byte, body func([]byte) ([]byte, error)) ([]byte, error) {
	start := len(b)
	b = append(b, 0) // the length, one byte until it is known
	b, err := body(b)
	if err != nil {
		return nil, err
	}
	n := len(b) - start - 1
	if size := protowire.SizeVarint(uint64(n)); size > 1 {
		b = append(b, make([]byte, size-1)...)
		copy(b[start+size:], b[start+1:start+1+n])
	}
	protowire.AppendVarint(b[:start], uint64(n))
	return b, nil
}

// appendFields appends the entries of a Struct's fields map, leaving out
// the values o leaves out. An error names the least failing key, as
// marshalFields does.
func appendFields(b []byte, m resource.Map, o Options, format string) ([]byte, error) {
	var errs firstError
	for k, v := range m {
		if err := validUTF8(k); err != nil {
			errs.add(k, err)
			continue
		}
		keep := true
		entry, err := appendMessage(protowire.AppendTag(b, structFields, protowire.BytesType), func(b []byte) ([]byte, error) {
			b = protowire.AppendTag(b, entryKey, protowire.BytesType)
			b = protowire.AppendString(b, k)
			b = protowire.AppendTag(b, entryValue, protowire.BytesType)
			var err error
			b, keep, err = appendValue(b, v, o)
			return b, err
		})
		switch {
		case err != nil:
			errs.add(k, err)
		case keep:
			b = entry
		}
	}
	if errs.err != nil {
		return nil, fmt.Errorf(format, errs.key, errs.err)
	}
	return b, nil
}

// appendValue appends v as a length-prefixed Value; keep is false when v
// is an unknown that o leaves out.
func appendValue(b []byte, v resource.Value, o Options) (_ []byte, keep bool, err error) {
	keep = true
	b, err = appendMessage(b, func(b []byte) ([]byte, error) {
		switch v.Kind() {
		case resource.NullKind:
			b = protowire.AppendTag(b, valueNull, protowire.VarintType)
			return protowire.AppendVarint(b, 0), nil
		case resource.BoolKind:
			b = protowire.AppendTag(b, valueBool, protowire.VarintType)
			return protowire.AppendVarint(b, protowire.EncodeBool(v.BoolValue())), nil
		case resource.NumberKind:
			b = protowire.AppendTag(b, valueNumber, protowire.Fixed64Type)
			return protowire.AppendFixed64(b, math.Float64bits(v.NumberValue())), nil
		case resource.StringKind:
			if err := validUTF8(v.StringValue()); err != nil {
				return nil, err
			}
			b = protowire.AppendTag(b, valueString, protowire.BytesType)
			return protowire.AppendString(b, v.StringValue()), nil
		case resource.ArrayKind:
			b = protowire.AppendTag(b, valueList, protowire.BytesType)
			return appendMessage(b, func(b []byte) ([]byte, error) {
				for i, e := range v.ArrayValue() {
					elem, keep, err := appendValue(protowire.AppendTag(b, listValueValues, protowire.BytesType), e, o)
					if err != nil {
						return nil, fmt.Errorf("[%d]: %w", i, err)
					}
					if keep {
						b = elem
					}
				}
				return b, nil
			})
		case resource.ObjectKind:
			b = protowire.AppendTag(b, valueStruct, protowire.BytesType)
			return appendMessage(b, func(b []byte) ([]byte, error) { return appendFields(b, v.ObjectValue(), o, "%s: %w") })
		}
		pv, err := MarshalValue(v, o)
		if err != nil || pv == nil {
			keep = false
			return b, err
		}
		return proto.MarshalOptions{}.MarshalAppend(b, pv)
	})
	return b, keep, err
}
