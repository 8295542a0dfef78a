package rpc

import (
	"fmt"
	"testing"

	sdk "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/cairn-iac/cairn/engine/resource"
)

// sdkPair is one value as Cairn and as the Pulumi SDK build it.
type sdkPair struct {
	name  string
	cairn resource.Value
	sdk   sdk.PropertyValue
}

func sdkPairs(t *testing.T) []sdkPair {
	sdkAsset, err := asset.FromText("hello")
	if err != nil {
		t.Fatal(err)
	}
	sdkArchive, err := archive.FromAssets(map[string]any{"a.txt": sdkAsset})
	if err != nil {
		t.Fatal(err)
	}
	cairnArchive := &resource.Archive{Assets: map[string]any{"a.txt": textAsset}, Hash: sdkArchive.Hash}
	return []sdkPair{
		{"null", resource.Null, sdk.NewNullProperty()},
		{"bool", resource.Bool(true), sdk.NewProperty(true)},
		{"number", resource.Number(4.5), sdk.NewProperty(4.5)},
		{"string", resource.String("x"), sdk.NewProperty("x")},
		{"array", resource.Array(resource.String("a"), resource.Number(1)),
			sdk.NewProperty([]sdk.PropertyValue{sdk.NewProperty("a"), sdk.NewProperty(1.0)})},
		{"object", resource.Object(resource.Map{"k": resource.String("v")}),
			sdk.NewProperty(sdk.PropertyMap{"k": sdk.NewProperty("v")})},
		{"secret", resource.MakeSecret(resource.String("s3cret")), sdk.MakeSecret(sdk.NewProperty("s3cret"))},
		{"secret object", resource.MakeSecret(resource.Object(resource.Map{"p": resource.String("w")})),
			sdk.MakeSecret(sdk.NewProperty(sdk.PropertyMap{"p": sdk.NewProperty("w")}))},
		{"unknown", resource.Unknown(), sdk.MakeComputed(sdk.NewProperty(""))},
		{"unknown in an array", resource.Array(resource.Unknown()),
			sdk.NewProperty([]sdk.PropertyValue{sdk.MakeComputed(sdk.NewProperty(""))})},
		{"asset", resource.NewAsset(textAsset), sdk.NewProperty(sdkAsset)},
		{"archive", resource.NewArchive(cairnArchive), sdk.NewProperty(sdkArchive)},
		{"custom resource reference", resource.NewRef(customRef),
			sdk.MakeCustomResourceReference(sdk.URN(customRef.URN), "id-1", "")},
		{"component resource reference", resource.NewRef(compRef),
			sdk.MakeComponentResourceReference(sdk.URN(compRef.URN), "")},
		{"reference with an unknown ID", resource.NewRef(pendingRef),
			sdk.MakeCustomResourceReference(sdk.URN(pendingRef.URN), "", "")},
		{"known output", resource.NewOutput(resource.Output{Element: resource.String("v"), Known: true, Dependencies: []resource.URN{depURN}}),
			sdk.NewProperty(sdk.Output{Element: sdk.NewProperty("v"), Known: true, Dependencies: []sdk.URN{sdk.URN(depURN)}})},
		{"secret output", resource.NewOutput(resource.Output{Element: resource.String("v"), Known: true, Secret: true}),
			sdk.NewProperty(sdk.Output{Element: sdk.NewProperty("v"), Known: true, Secret: true})},
		{"unknown output", resource.NewOutput(resource.Output{Dependencies: []resource.URN{depURN}}),
			sdk.NewProperty(sdk.Output{Dependencies: []sdk.URN{sdk.URN(depURN)}})},
	}
}

// TestWireFormMatchesPulumiSDK checks internal/rpc's wire encoding against the
// Pulumi SDK's own (plugin.MarshalProperties and UnmarshalProperties), for
// every kind of value under every negotiation: what Cairn sends is what
// Pulumi's engine sends, and what Pulumi's SDKs send reads back as the value
// they meant.
func TestWireFormMatchesPulumiSDK(t *testing.T) {
	for _, p := range sdkPairs(t) {
		for _, o := range flagSets {
			name := fmt.Sprintf("%s/%+v", p.name, o)
			sdkOpts := plugin.MarshalOptions{KeepUnknowns: o.KeepUnknowns, RejectUnknowns: o.RejectUnknowns,
				KeepSecrets: o.KeepSecrets, KeepResources: o.KeepResources, KeepOutputValues: o.KeepOutputValues}
			want, sdkErr := plugin.MarshalProperties(sdk.PropertyMap{"v": p.sdk}, sdkOpts)
			got, err := MarshalMap(resource.Map{"v": p.cairn}, o)
			if (err != nil) != (sdkErr != nil) {
				t.Errorf("%s: marshalling gives error %v, the SDK %v", name, err, sdkErr)
				continue
			}
			if err != nil {
				continue
			}
			if !proto.Equal(got, want) {
				t.Errorf("%s: Cairn sends\n%s\nthe Pulumi SDK\n%s", name, protojson.Format(got), protojson.Format(want))
			}
		}

		// What the SDK sends, kept whole, reads back as Cairn's value.
		everything := plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true}
		wire, err := plugin.MarshalProperties(sdk.PropertyMap{"v": p.sdk}, everything)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		back, err := UnmarshalMap(wire, Everything)
		if err != nil {
			t.Errorf("%s: reading the SDK's wire form: %v", p.name, err)
			continue
		}
		if !back["v"].Equal(p.cairn) {
			t.Errorf("%s: the SDK's wire form reads back as %v, want %v", p.name, back["v"], p.cairn)
		}
	}
}
