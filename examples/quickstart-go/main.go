// Command quickstart-go is the quickstart stack written with Pulumi's Go
// SDK: a component holding a pet name and a password of Cairn's built-in
// random provider, declared by type token (the program needs no provider
// SDK). Cairn builds it with go build and runs it; no Pulumi binary is
// needed.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// RandomPet is a random:index/randomPet:RandomPet; its ID is the name.
type RandomPet struct {
	pulumi.CustomResourceState
}

// RandomPassword is a random:index/randomPassword:RandomPassword; its
// result is a secret.
type RandomPassword struct {
	pulumi.CustomResourceState
	Result pulumi.StringOutput `pulumi:"result"`
}

// Greeter is a component: a pet name and a password under it.
type Greeter struct {
	pulumi.ResourceState
	PetName  pulumi.StringOutput
	Password pulumi.StringOutput
}

// NewGreeter declares a Greeter whose pet name starts with prefix.
func NewGreeter(ctx *pulumi.Context, name, prefix string, opts ...pulumi.ResourceOption) (*Greeter, error) {
	g := &Greeter{}
	if err := ctx.RegisterComponentResource("quickstart:index:Greeter", name, g, opts...); err != nil {
		return nil, err
	}
	var pet RandomPet
	err := ctx.RegisterResource("random:index/randomPet:RandomPet", name+"-pet",
		pulumi.Map{"prefix": pulumi.String(prefix), "length": pulumi.Int(2)}, &pet, pulumi.Parent(g))
	if err != nil {
		return nil, err
	}
	var password RandomPassword
	err = ctx.RegisterResource("random:index/randomPassword:RandomPassword", name+"-password",
		pulumi.Map{"length": pulumi.Int(20), "special": pulumi.Bool(false)}, &password, pulumi.Parent(g))
	if err != nil {
		return nil, err
	}
	g.PetName, g.Password = pet.ID().ToStringOutput(), password.Result
	return g, ctx.RegisterResourceOutputs(g, pulumi.Map{"petName": g.PetName, "password": g.Password})
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		prefix := config.Get(ctx, "prefix")
		if prefix == "" {
			prefix = "demo"
		}
		g, err := NewGreeter(ctx, "greeter", prefix)
		if err != nil {
			return err
		}
		ctx.Export("petName", g.PetName)
		ctx.Export("greeting", pulumi.Sprintf("hello, %s", g.PetName))
		ctx.Export("password", g.Password)
		return nil
	})
}
