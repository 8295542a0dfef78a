// Package builtin is the provider of the "pulumi" package: the resources and
// functions every stack can use without a plugin.
//
//   - pulumi:pulumi:StackReference reads the outputs of another stack of the
//     same backend (input "name"; outputs "name", "outputs" and
//     "secretOutputNames"). Programs read it with ReadResource, the stack's
//     name being the ID (so the name cannot be secret: the languages refuse
//     one); registering it as a resource is deprecated but works, gives it
//     a random ID, and such a reference is updated when the other stack's
//     outputs change. Outputs that are secret in the other stack stay
//     secret.
//   - pulumi:index:Stash stores its "input" once, as "output", and keeps it
//     across updates however the input changes; it takes a new value only
//     when it is replaced (cairn up --replace, or replaceOnChanges). Its ID
//     is a random UUID.
//   - pulumi:pulumi:readStackOutputs returns another stack's outputs by name.
//   - pulumi:pulumi:getResource returns a resource of the current deployment
//     by URN: its urn, id, provider and state.
//
// The provider reaches other stacks through a StackReader, which the CLI
// implements over its backend, and the current deployment through a
// ResourceLookup, which the engine implements:
//
//	host := provider.Factories{
//		builtin.Factory(builtin.Options{Stacks: backendStacks, Resources: deployment}),
//		random.Factory(),
//		command.Factory(),
//	}
package builtin
