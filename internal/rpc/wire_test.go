package rpc

import (
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/resource"
)

// viaAppendMap returns a CheckRequest whose news AppendMap wrote, as its
// receiver reads it.
func viaAppendMap(t *testing.T, m resource.Map, o Options) (*pulumirpc.CheckRequest, error) {
	t.Helper()
	req := &pulumirpc.CheckRequest{Urn: "urn:pulumi:dev::p::t:index:T::a"}
	data, err := AppendMap(nil, 3, m, o) // CheckRequest.news
	if err != nil {
		return nil, err
	}
	req.ProtoReflect().SetUnknown(data)
	wire, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var got pulumirpc.CheckRequest
	if err := proto.Unmarshal(wire, &got); err != nil {
		t.Fatal(err)
	}
	return &got, nil
}

// checkAppendMap checks that AppendMap writes what MarshalMap and
// proto.Marshal write, or fails as MarshalMap does.
func checkAppendMap(t *testing.T, m resource.Map, o Options) {
	t.Helper()
	news, wantErr := MarshalMap(m, o)
	got, err := viaAppendMap(t, m, o)
	if wantErr != nil || err != nil {
		if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: AppendMap error %v, MarshalMap error %v", describe(o), err, wantErr)
		}
		return
	}
	want := &pulumirpc.CheckRequest{Urn: "urn:pulumi:dev::p::t:index:T::a", News: news}
	if !proto.Equal(got, want) {
		t.Errorf("%s: AppendMap wrote\n%v\nwant\n%v", describe(o), got, want)
	}
}

func TestAppendMapWritesWhatMarshalMapDoes(t *testing.T) {
	long := strings.Repeat("x", 300) // lengths of two varint bytes
	var many []resource.Value
	for i := range 200 {
		many = append(many, resource.Object(resource.Map{"i": resource.Number(float64(i)), "s": resource.String(long)}))
	}
	maps := map[string]resource.Map{
		"nil":   nil,
		"empty": {},
		"every kind": {
			"null": resource.Null, "false": resource.Bool(false), "true": resource.Bool(true),
			"zero": resource.Number(0), "number": resource.Number(-2.5), "empty string": resource.String(""),
			"string": resource.String("s"), "long": resource.String(long), "": resource.String("empty key"),
			"array":       resource.Array(resource.String("a"), resource.Unknown(), resource.Number(1)),
			"object":      resource.Object(resource.Map{"x": resource.Number(1), "u": resource.Unknown()}),
			"empty array": resource.Array(), "empty object": resource.Object(resource.Map{}),
			"asset":   resource.NewAsset(textAsset),
			"archive": resource.NewArchive(&resource.Archive{Path: "dir", Hash: "h"}),
			"ref":     resource.NewRef(customRef), "pending ref": resource.NewRef(pendingRef),
			"unknown": resource.Unknown(),
			"secret":  resource.MakeSecret(resource.Array(resource.Number(1))),
			"output": resource.NewOutput(resource.Output{Element: resource.String("o"), Known: true, Secret: true,
				Dependencies: []resource.URN{depURN}}),
			"nested secret": resource.Object(resource.Map{"pw": resource.MakeSecret(resource.String("hunter2"))}),
		},
		"typical outputs": typicalOutputs,
		"large":           {"items": resource.Array(many...)},
		"invalid UTF-8":   {"ok": resource.String("a"), "bad": resource.Object(resource.Map{"k": resource.String("\xff")})},
		"invalid key":     {"ok": resource.String("a"), "\xff": resource.String("b")},
		"invalid element": {"list": resource.Array(resource.String("a"), resource.String("\xff"))},
	}
	for name, m := range maps {
		t.Run(name, func(t *testing.T) {
			for _, o := range flagSets {
				checkAppendMap(t, m, o)
			}
		})
	}
}

func TestAppendMapNamesTheLeastKey(t *testing.T) {
	m := resource.Map{}
	for _, k := range []string{"m", "c", "x", "a", "q"} {
		m[k] = resource.Object(resource.Map{"z": resource.Unknown(), "b": resource.Unknown()})
	}
	for range 50 {
		if _, err := AppendMap(nil, 1, m, rejectUnknown); err == nil || !strings.HasPrefix(err.Error(), "property a: b: ") {
			t.Fatalf("got %v, want an error naming property a: b", err)
		}
	}
}

// FuzzAppendMap writes every property map that a protobuf Struct reads as
// the way MarshalMap does.
func FuzzAppendMap(f *testing.F) {
	for _, m := range []resource.Map{typicalOutputs, {"a": resource.Unknown(), "b": resource.Array(resource.Null)}} {
		s, err := MarshalMap(m, Everything)
		if err != nil {
			f.Fatal(err)
		}
		data, err := proto.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s structpb.Struct
		if proto.Unmarshal(data, &s) != nil {
			return
		}
		m, err := UnmarshalMap(&s, Everything)
		if err != nil {
			return
		}
		for _, o := range flagSets {
			checkAppendMap(t, m, o)
		}
	})
}

func BenchmarkAppendMap(b *testing.B) {
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		var err error
		if buf, err = AppendMap(buf[:0], 3, typicalOutputs, Everything); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalMapToWire is what AppendMap replaces: MarshalMap, then
// proto.Marshal of the Struct.
func BenchmarkMarshalMapToWire(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := MarshalMap(typicalOutputs, Everything)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := proto.Marshal(s); err != nil {
			b.Fatal(err)
		}
	}
}
