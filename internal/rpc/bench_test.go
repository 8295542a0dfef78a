package rpc

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

// typicalOutputs are a random password's outputs: a few scalars, a secret
// and a small map of keepers.
var typicalOutputs = resource.Map{
	"length":          resource.Number(24),
	"special":         resource.Bool(true),
	"overrideSpecial": resource.String("!#$%&*()-_=+[]{}<>:?"),
	"minUpper":        resource.Number(2),
	"minLower":        resource.Number(2),
	"minNumeric":      resource.Number(2),
	"upper":           resource.Bool(true),
	"lower":           resource.Bool(true),
	"numeric":         resource.Bool(true),
	"keepers":         resource.Object(resource.Map{"env": resource.String("prod"), "rotation": resource.String("2024-01")}),
	"tags":            resource.Array(resource.String("a"), resource.String("b"), resource.String("c")),
	"result":          resource.MakeSecret(resource.String("q8Zr!p2Lx#v9Nw4Tb7Kc=m1R")),
	"bcryptHash":      resource.MakeSecret(resource.String("$2a$10$abcdefghijklmnopqrstuv")),
	"id":              resource.String("none"),
}

func BenchmarkMarshalMap(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MarshalMap(typicalOutputs, Everything); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalMap(b *testing.B) {
	s, err := MarshalMap(typicalOutputs, Everything)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := UnmarshalMap(s, Everything); err != nil {
			b.Fatal(err)
		}
	}
}
