package values_test

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// benchOutputs are the outputs of a typical small resource.
func benchOutputs() resource.Map {
	return resource.Map{"length": resource.Number(8), "special": resource.Bool(true), "upper": resource.Bool(true),
		"lower": resource.Bool(true), "numeric": resource.Bool(true), "minUpper": resource.Number(0),
		"result":  resource.MakeSecret(resource.String("Y%suZCKR")),
		"keepers": resource.Object(resource.Map{"env": resource.String("dev")})}
}

// BenchmarkResourceObject makes the cty value of a registered resource, as
// evaluation does for each resource a program refers to.
func BenchmarkResourceObject(b *testing.B) {
	outputs := benchOutputs()
	urn := resource.NewURN("dev", "proj", "", "random:index/randomString:RandomString", "r1")
	for b.Loop() {
		values.ResourceObject(urn, "r1-id", true, outputs)
	}
}

// BenchmarkObjectToEngine converts evaluated properties into the property
// map a registration carries.
func BenchmarkObjectToEngine(b *testing.B) {
	v := values.MapFromEngine(benchOutputs())
	for b.Loop() {
		if _, _, err := values.ObjectToEngine(v); err != nil {
			b.Fatal(err)
		}
	}
}
