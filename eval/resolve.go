package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Resolver maps the traversals of a scope's expressions to what they name.
// Each language has its own: YAML names nodes by their bare names, HCL by
// var.x, local.x, <type>.<name>, data.<type>.<name> and module.x.
type Resolver interface {
	// Resolve returns what t names when it appears in an expression of from,
	// or diagnostics (an unknown name, with a suggestion) at t's range.
	Resolve(from Node, t hcl.Traversal) (Reference, hcl.Diagnostics)
}

// Reference is what a traversal names: a node of the scope or a value the
// evaluator provides. Len is the number of leading traversal steps that name
// it; the steps after it are applied to its value.
type Reference struct {
	Node    Node
	Builtin Builtin   // when Node is nil
	Value   cty.Value // for BuiltinConstant
	Len     int
}

// Builtin is a value the evaluator provides rather than a node.
type Builtin int

// The builtin values.
const (
	// BuiltinNone means the reference names a node.
	BuiltinNone Builtin = iota
	// BuiltinPulumi is the object {cwd, project, stack, organization,
	// rootDirectory} of the run.
	BuiltinPulumi
	// BuiltinCount is the object {index} of an instance of a counted node.
	BuiltinCount
	// BuiltinEach is the object {key, value} of an instance of a node
	// expanded with forEach.
	BuiltinEach
	// BuiltinConstant is Reference.Value.
	BuiltinConstant
	// BuiltinSelf is the value of the instance itself, in its
	// postconditions.
	BuiltinSelf
	// BuiltinTerraform is the object {workspace} of Terraform
	// configurations: the workspace is the stack.
	BuiltinTerraform
)
