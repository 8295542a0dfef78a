// Command sdkprogram is a Pulumi program written with the real Pulumi Go
// SDK; the langhost tests compile it and run it against Cairn's monitor.
//
// It is its own module, so that the SDK's many dependencies stay out of
// Cairn's, and because the newest SDK whose dependencies the module proxy
// serves in full is older than the one Cairn takes its protocol definitions
// from; the wire protocol is the same.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Item is a kv:index:Item of the test provider.
type Item struct {
	pulumi.CustomResourceState
	Value    pulumi.AnyOutput     `pulumi:"value"`
	Length   pulumi.Float64Output `pulumi:"length"`
	Revision pulumi.Float64Output `pulumi:"revision"`
	Password pulumi.StringOutput  `pulumi:"password"`
}

// Group is a component written in the program.
type Group struct {
	pulumi.ResourceState
}

// Pair is a component the test provider constructs.
type Pair struct {
	pulumi.ResourceState
	Left  pulumi.StringOutput `pulumi:"left"`
	Right pulumi.StringOutput `pulumi:"right"`
}

// Provider is an explicit kv provider.
type Provider struct {
	pulumi.ProviderResourceState
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		greeting := cfg.Require("greeting")
		password := cfg.RequireSecret("password")

		var first Item
		if err := ctx.RegisterResource("kv:index:Item", "first",
			pulumi.Map{"value": pulumi.String(greeting), "password": password}, &first); err != nil {
			return err
		}

		var explicit Provider
		if err := ctx.RegisterResource("pulumi:providers:kv", "explicit",
			pulumi.Map{"acceptSecrets": pulumi.Bool(false)}, &explicit); err != nil {
			return err
		}
		var second Item
		if err := ctx.RegisterResource("kv:index:Item", "second",
			pulumi.Map{"value": first.Length, "password": password}, &second, pulumi.Provider(&explicit)); err != nil {
			return err
		}

		var group Group
		if err := ctx.RegisterComponentResource("test:index:Group", "group", &group); err != nil {
			return err
		}
		var child Item
		if err := ctx.RegisterResource("kv:index:Item", "child",
			pulumi.Map{"value": pulumi.String("in a group")}, &child, pulumi.Parent(&group)); err != nil {
			return err
		}
		if err := ctx.RegisterResourceOutputs(&group, pulumi.Map{"child": child.ID()}); err != nil {
			return err
		}

		var pair Pair
		if err := ctx.RegisterRemoteComponentResource("kv:index:Pair", "pair",
			pulumi.Map{"prefix": pulumi.String("p")}, &pair); err != nil {
			return err
		}

		ctx.Log.Info("hello from the Go SDK", nil)
		ctx.Export("firstLength", first.Length)
		ctx.Export("secondValue", second.Value)
		ctx.Export("password", first.Password)
		ctx.Export("pairLeft", pair.Left)
		return nil
	})
}
