package yaml

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/eval"
)

// call is a builtin as written: the fn:: key and its argument.
type call struct {
	key, arg *node
	rng      hcl.Range // the whole mapping
}

// builtin describes one fn:: builtin: its spelling and how it becomes an
// expression.
type builtin struct {
	name  string
	build func(p *parser, c call) hclsyntax.Expression
}

// builtins are the fn:: builtins by lower-case name. Most are calls of the
// function library; fn::invoke calls eval.InvokeFunction.
var builtins = map[string]builtin{}

func init() {
	for _, b := range []builtin{
		{"invoke", (*parser).invoke},
		{"join", binary("join")},
		{"split", binary("split")},
		{"select", binary("select")},
		{"toJSON", unary("tojson")},
		{"fromJSON", unary("fromjson")},
		{"toBase64", unary("base64encode")},
		{"fromBase64", unary("base64decode")},
		{"secret", unary("secret")},
		{"unsecret", unary("unsecret")},
		{"readFile", (*parser).readFile},
		{"filebase64", unary("filebase64")},
		{"filebase64sha256", unary("filebase64sha256")},
		{"sha1", unary("sha1")},
		{"length", unary("length")},
		{"singleOrNone", unary("singleornone")},
		{"pulumiResourceName", unary("pulumiresourcename")},
		{"pulumiResourceType", unary("pulumiresourcetype")},
		{"stringAsset", unary("stringasset")},
		{"fileAsset", unary("fileasset")},
		{"remoteAsset", unary("remoteasset")},
		{"fileArchive", unary("filearchive")},
		{"remoteArchive", unary("remotearchive")},
		{"assetArchive", (*parser).assetArchive},
		{"stackReference", (*parser).stackReference},
	} {
		builtins[strings.ToLower(b.name)] = b
	}
}

const builtinPrefix = "fn::"

// BuiltinNames returns the fn:: builtins as they are spelled, fn::invoke
// among them, in name order.
func BuiltinNames() []string {
	out := make([]string, 0, len(builtins))
	for _, b := range builtins {
		out = append(out, builtinPrefix+b.name)
	}
	sort.Strings(out)
	return out
}

func hasBuiltinPrefix(key string) bool {
	return len(key) >= len(builtinPrefix) && strings.EqualFold(key[:len(builtinPrefix)], builtinPrefix)
}

// invokeShorthand matches fn::<pkg>:<module>[:<function>], a call of a
// provider function with the value as its arguments.
var invokeShorthand = regexp.MustCompile(`^[^:]+:[^:]+(:[^:]+)?$`)

// builtin returns the expression of a mapping whose only key is kv, if that
// key names a builtin.
func (p *parser) builtin(n *node, kv pair) hclsyntax.Expression {
	key := kv.key.value
	if !hasBuiltinPrefix(key) {
		return nil
	}
	name := key[len(builtinPrefix):]
	c := call{key: kv.key, arg: kv.value, rng: n.rng}
	if b, ok := builtins[strings.ToLower(name)]; ok {
		if name != b.name || key[:len(builtinPrefix)] != builtinPrefix {
			p.warnf(kv.key.rng, "Miscapitalized builtin", "%s looks like a miscapitalization of fn::%s.", key, b.name)
		}
		return b.build(p, c)
	}
	if invokeShorthand.MatchString(name) {
		return p.invokeCall(c, &hclsyntax.LiteralValueExpr{Val: cty.StringVal(name), SrcRange: kv.key.rng}, p.expr(kv.value), nil)
	}
	lower, names := make([]string, 0, len(builtins)), make([]string, 0, len(builtins))
	for l, b := range builtins {
		lower, names = append(lower, l), append(names, "fn::"+b.name)
	}
	hint := ""
	if s := eval.Suggest(strings.ToLower(name), lower); s != "" {
		hint = fmt.Sprintf(" Did you mean %q?", "fn::"+builtins[s].name)
	}
	p.errorf(kv.key.rng, "Unknown builtin", "%s is not a builtin.%s A mapping whose only key starts with fn:: calls a builtin (%s) or a provider function (fn::<package>:<module>:<function>).",
		key, hint, eval.List(names, 3))
	return &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: n.rng}
}

// callExpr calls a library function with the arguments of a builtin.
func callExpr(fn string, c call, args ...hclsyntax.Expression) *hclsyntax.FunctionCallExpr {
	end := c.rng
	end.Start = end.End
	return &hclsyntax.FunctionCallExpr{Name: fn, Args: args, NameRange: c.key.rng, OpenParenRange: c.key.rng, CloseParenRange: end}
}

// unary makes a builtin whose argument is the function's only argument.
func unary(fn string) func(p *parser, c call) hclsyntax.Expression {
	return func(p *parser, c call) hclsyntax.Expression {
		return callExpr(fn, c, p.expr(c.arg))
	}
}

// binary makes a builtin whose argument is a list of the function's two
// arguments.
func binary(fn string) func(p *parser, c call) hclsyntax.Expression {
	return func(p *parser, c call) hclsyntax.Expression {
		if c.arg.kind != yaml.SequenceNode || len(c.arg.items) != 2 {
			p.errorf(c.arg.rng, "Invalid builtin argument", "The argument to %s must be a two-valued list.", c.key.value)
			return callExpr(fn, c)
		}
		return callExpr(fn, c, p.expr(c.arg.items[0]), p.expr(c.arg.items[1]))
	}
}

// readFile reads a file of the project; only a constant absolute path may
// name a file outside it.
func (p *parser) readFile(c call) hclsyntax.Expression {
	if path, ok := stringLiteral(c.arg); ok && filepath.IsAbs(path) {
		return callExpr("file", c, p.expr(c.arg))
	}
	return callExpr(eval.ReadFileFunction, c, p.expr(c.arg))
}

// assetArchive builds an archive of named assets and archives.
func (p *parser) assetArchive(c call) hclsyntax.Expression {
	if c.arg.kind != yaml.MappingNode {
		p.errorf(c.arg.rng, "Invalid builtin argument", "The argument to %s must be a mapping of names to assets and archives.", c.key.value)
	}
	return callExpr("assetarchive", c, p.expr(c.arg))
}

// stackReference is the deprecated fn::stackReference: [stack, output],
// which reads an output of another stack through the built-in function
// pulumi:pulumi:readStackOutputs.
func (p *parser) stackReference(c call) hclsyntax.Expression {
	p.warnf(c.key.rng, "Deprecated builtin", "%s is deprecated; declare a resource of type pulumi:pulumi:StackReference with the stack's name and read ${ref.outputs[\"name\"]}.", c.key.value)
	if c.arg.kind != yaml.SequenceNode || len(c.arg.items) != 2 {
		p.errorf(c.arg.rng, "Invalid builtin argument", "The argument to %s must be a two-valued list: the stack's name and the output's.", c.key.value)
		return &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: c.rng}
	}
	stack, output := c.arg.items[0], c.arg.items[1]
	args := &hclsyntax.ObjectConsExpr{Items: []hclsyntax.ObjectConsItem{{
		KeyExpr:   &hclsyntax.ObjectConsKeyExpr{Wrapped: &hclsyntax.LiteralValueExpr{Val: cty.StringVal("name"), SrcRange: stack.rng}},
		ValueExpr: p.expr(stack),
	}}, SrcRange: stack.rng, OpenRange: stack.rng}
	read := callExpr(eval.InvokeFunction, c, &hclsyntax.LiteralValueExpr{Val: cty.StringVal(readStackOutputs), SrcRange: c.key.rng}, args)
	outputs := &hclsyntax.RelativeTraversalExpr{Source: read, Traversal: hcl.Traversal{hcl.TraverseAttr{Name: "outputs", SrcRange: c.key.rng}}, SrcRange: c.rng}
	return &hclsyntax.IndexExpr{Collection: outputs, Key: p.expr(output), SrcRange: c.rng, OpenRange: output.rng, BracketRange: output.rng}
}

// readStackOutputs is the built-in function that reads another stack's
// outputs.
const readStackOutputs = "pulumi:pulumi:readStackOutputs"

// invoke is fn::invoke: {function, arguments, options, return}.
func (p *parser) invoke(c call) hclsyntax.Expression {
	fields := p.fields(c.arg, "fn::invoke", []string{"function", "arguments", "options", "return"}, true)
	if fields == nil {
		return callExpr(eval.InvokeFunction, c)
	}
	fn := fields["function"]
	if fn == nil {
		p.errorf(c.arg.rng, "Missing function name", "fn::invoke needs the token of the function to call, under function.")
		return callExpr(eval.InvokeFunction, c)
	}
	token, ok := stringLiteral(fn.value)
	if !ok {
		p.errorf(fn.value.rng, "Invalid function name", "The function name of fn::invoke must be a string literal, such as aws:ec2:getAmi.")
		return callExpr(eval.InvokeFunction, c)
	}
	var args hclsyntax.Expression = &hclsyntax.ObjectConsExpr{SrcRange: c.arg.rng, OpenRange: c.arg.rng}
	if a := fields["arguments"]; a != nil {
		args = p.expr(a.value)
	}
	var opts hclsyntax.Expression
	if o := fields["options"]; o != nil {
		opts = p.invokeOptions(o.value)
	}
	e := p.invokeCall(c, &hclsyntax.LiteralValueExpr{Val: cty.StringVal(token), SrcRange: fn.value.rng}, args, opts)
	if r := fields["return"]; r != nil {
		name, ok := stringLiteral(r.value)
		if !ok {
			p.errorf(r.value.rng, "Invalid return", "The return of fn::invoke must be the name of a property of the function's result.")
			return e
		}
		return &hclsyntax.RelativeTraversalExpr{Source: e, Traversal: hcl.Traversal{hcl.TraverseAttr{Name: name, SrcRange: r.value.rng}}, SrcRange: c.rng}
	}
	return e
}

func (p *parser) invokeCall(c call, token, args, opts hclsyntax.Expression) hclsyntax.Expression {
	if opts == nil {
		return callExpr(eval.InvokeFunction, c, token, args)
	}
	return callExpr(eval.InvokeFunction, c, token, args, opts)
}

// invokeOptions are the options of fn::invoke.
func (p *parser) invokeOptions(n *node) hclsyntax.Expression {
	if n.kind != yaml.MappingNode {
		return p.expr(n)
	}
	p.fields(n, "invoke options", []string{"provider", "parent", "dependsOn", "version", "pluginDownloadURL"}, false)
	return p.expr(n)
}

// fields reads the fields of a mapping with a fixed set of keys, reporting
// unknown ones (matched without regard to case when fold is set). It
// returns nil if n is not a mapping.
func (p *parser) fields(n *node, what string, known []string, fold bool) map[string]*pair {
	if n.kind != yaml.MappingNode {
		p.errorf(n.rng, "Expected a mapping", "The argument to %s must be a mapping of %s.", what, strings.Join(known, ", "))
		return nil
	}
	out := map[string]*pair{}
	for i := range n.pairs {
		kv := &n.pairs[i]
		name := ""
		for _, k := range known {
			if k == kv.key.value || fold && strings.EqualFold(k, kv.key.value) {
				name = k
			}
		}
		if name == "" {
			p.errorf(kv.key.rng, "Unknown field", "%s has no field %s; its fields are %s.%s", what, kv.key.value, strings.Join(known, ", "), eval.DidYouMean(kv.key.value, known))
			continue
		}
		out[name] = kv
	}
	return out
}
