package resource_test

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

// benchProps are the inputs of a typical small resource, one of them nested.
func benchProps() resource.Map {
	return resource.Map{"length": resource.Number(8), "special": resource.Bool(true), "upper": resource.Bool(true),
		"lower": resource.Bool(true), "numeric": resource.Bool(true), "minUpper": resource.Number(0), "result": resource.String("Y%suZCKR"),
		"keepers": resource.Object(resource.Map{"env": resource.String("dev"), "zone": resource.String("eu-west-1a")}),
		"tags":    resource.Array(resource.String("a"), resource.String("b"))}
}

// BenchmarkDiffMaps diffs inputs that did not change, as a no-change
// preview does for every resource, and inputs of which one key changed.
func BenchmarkDiffMaps(b *testing.B) {
	old := benchProps()
	changed := benchProps()
	changed["length"] = resource.Number(9)
	for _, c := range []struct {
		name string
		new  resource.Map
	}{{"same", benchProps()}, {"one-changed", changed}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				resource.DiffMaps(old, c.new)
			}
		})
	}
}

// BenchmarkEncodeDecodeMap converts a property map to its JSON-shaped form
// and back, as the state and the wire do.
func BenchmarkEncodeDecodeMap(b *testing.B) {
	m := benchProps()
	for b.Loop() {
		x, err := resource.EncodeMap(m, resource.EncodeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := resource.DecodeMap(x, resource.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
