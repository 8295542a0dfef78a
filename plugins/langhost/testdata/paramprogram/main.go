// Command paramprogram is a Pulumi program written with the real Pulumi Go
// SDK that uses a parameterized package, as a generated SDK of one does:
// it registers the package (the kv plugin parameterized into package
// bucket) and its resources under the package reference.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Item is a bucket:index:Item of the parameterized test provider.
type Item struct {
	pulumi.CustomResourceState
	Value  pulumi.StringOutput  `pulumi:"value"`
	Length pulumi.Float64Output `pulumi:"length"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		pkg, err := ctx.RegisterPackage(&pulumirpc.RegisterPackageRequest{
			Name: "kv", Version: "1.0.0",
			Parameterization: &pulumirpc.Parameterization{Name: "bucket", Version: "1.0.0", Value: []byte("bucket")},
		})
		if err != nil {
			return err
		}
		var item Item
		if err := ctx.RegisterPackageResource("bucket:index:Item", "param", pulumi.Map{"value": pulumi.String("hello")}, &item, pkg.Ref); err != nil {
			return err
		}
		ctx.Export("length", item.Length)
		return nil
	})
}
