// The quickstart stack written with Pulumi's Node.js SDK in TypeScript: a
// component holding a pet name and a password of Cairn's built-in random
// provider, declared by type token (the program needs no provider
// package). Cairn runs it with its own Node.js language host; node and
// `npm install` are all it needs.
import * as pulumi from "@pulumi/pulumi";

class RandomPet extends pulumi.CustomResource {
    constructor(name: string, args: { prefix: pulumi.Input<string>; length: number }, opts?: pulumi.CustomResourceOptions) {
        super("random:index/randomPet:RandomPet", name, args, opts);
    }
}

class RandomPassword extends pulumi.CustomResource {
    declare readonly result: pulumi.Output<string>;

    constructor(name: string, args: { length: number; special: boolean }, opts?: pulumi.CustomResourceOptions) {
        super("random:index/randomPassword:RandomPassword", name, { ...args, result: undefined }, opts);
    }
}

// Greeter is a component: a pet name and a password under it.
class Greeter extends pulumi.ComponentResource {
    readonly petName: pulumi.Output<string>;
    readonly password: pulumi.Output<string>;

    constructor(name: string, prefix: pulumi.Input<string>, opts?: pulumi.ComponentResourceOptions) {
        super("quickstart:index:Greeter", name, {}, opts);
        const pet = new RandomPet(`${name}-pet`, { prefix, length: 2 }, { parent: this });
        const password = new RandomPassword(`${name}-password`, { length: 20, special: false }, { parent: this });
        this.petName = pet.id;
        this.password = password.result;
        this.registerOutputs({ petName: this.petName, password: this.password });
    }
}

const config = new pulumi.Config();
const greeter = new Greeter("greeter", config.get("prefix") ?? "demo");

export const petName = greeter.petName;
export const greeting = pulumi.interpolate`hello, ${greeter.petName}`;
export const password = greeter.password;
