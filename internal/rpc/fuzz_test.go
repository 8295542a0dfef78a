package rpc

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/resource"
)

// FuzzUnmarshalValue reads protobuf values as the engine reads what SDKs
// and providers send: no input panics, and a value that reads is marshalled
// back to what reads as it.
func FuzzUnmarshalValue(f *testing.F) {
	for _, v := range []resource.Value{
		resource.Null, resource.Bool(true), resource.Number(2), resource.String("s"),
		resource.Array(resource.String("a"), resource.Number(1)),
		resource.Object(resource.Map{"a": resource.MakeSecret(resource.String("pw"))}),
		resource.Unknown(), resource.MakeSecret(resource.Object(resource.Map{"n": resource.Number(1)})),
	} {
		pv, err := MarshalValue(v, Everything)
		if err != nil {
			f.Fatal(err)
		}
		data, err := proto.Marshal(pv)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var pv structpb.Value
		if proto.Unmarshal(data, &pv) != nil {
			return
		}
		v, ok, err := UnmarshalValue(&pv, Everything)
		if err != nil || !ok {
			return
		}
		back, err := MarshalValue(v, Everything)
		if err != nil {
			t.Fatalf("MarshalValue(%v) = %v", v, err)
		}
		again, ok, err := UnmarshalValue(back, Everything)
		if err != nil || !ok || !again.Equal(v) {
			t.Fatalf("%v marshals to %v, which reads as %v (%v, %v)", v, back, again, ok, err)
		}
	})
}
