package yaml

import (
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/eval"
)

// policyKeys are the fields of a policy.
var policyKeys = []string{"description", "enforcementLevel", "type", "condition", "message"}

// ParsePolicies reads a policy file written in YAML: an optional name (the
// pack's; the file's base name by default), and the sections policies
// (resource rules) and stackPolicies (rules over every resource), mappings
// of policies by name:
//
//	policies:
//	  no-public-buckets:
//	    description: Buckets are private.
//	    enforcementLevel: mandatory          # advisory (default), mandatory or disabled
//	    type: aws:s3/bucket:Bucket           # or a list; * stands for any text
//	    condition: ${acl != "public-read"}   # the resource's inputs in scope
//	    message: ${resource.name} is public.
//	stackPolicies:
//	  few-instances:
//	    condition: ${length([for r in resources: r if r.type == "aws:ec2/instance:Instance"]) <= 3}
//
// Expressions are those of programs. File functions resolve paths against
// dir.
func ParsePolicies(filename string, src []byte, dir string) (*eval.PolicyPack, hcl.Diagnostics) {
	l := &loader{dir: dir, files: map[string]*hcl.File{}}
	root := l.parse(filename, src)
	pack := &eval.PolicyPack{Pack: strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename)), Files: l.files, Dir: dir}
	if root == nil {
		return pack, l.p.diags
	}
	p := &l.p
	if root.kind != yaml.MappingNode {
		p.errorf(root.rng, "Invalid policy file", "A policy file must be a mapping with name, policies and stackPolicies.")
		return pack, p.diags
	}
	p.fields(root, "a policy file", []string{"name", "description", "policies", "stackPolicies"}, false)
	for _, kv := range root.pairs {
		switch kv.key.value {
		case "name":
			if s, ok := stringLiteral(kv.value); ok && s != "" {
				pack.Pack = s
			} else {
				p.errorf(kv.value.rng, "Invalid name", "The name of a policy pack must be a non-empty string.")
			}
		case "policies", "stackPolicies":
			stack := kv.key.value == "stackPolicies"
			p.entries(kv.value, kv.key.value, func(k, v *node) {
				if r := p.rule(k, v, stack); r != nil {
					pack.Rules = append(pack.Rules, r)
				}
			})
		}
	}
	return pack, p.diags
}

// rule reads one policy.
func (p *parser) rule(k, v *node, stack bool) *eval.Rule {
	keys := policyKeys
	if stack {
		keys = []string{"description", "enforcementLevel", "condition", "message"}
	}
	fields := p.fields(v, "policy "+k.value, keys, false)
	if fields == nil {
		return nil
	}
	r := &eval.Rule{Name: k.value, NameRange: k.rng, Stack: stack, Level: policy.Advisory}
	if kv := fields["description"]; kv != nil {
		r.Description, _ = stringLiteral(kv.value)
	}
	if kv := fields["enforcementLevel"]; kv != nil {
		s, _ := stringLiteral(kv.value)
		l, err := policy.ParseLevel(s)
		if err != nil {
			p.errorf(kv.value.rng, "Invalid enforcement level", "%s.", err)
		}
		r.Level = l
	}
	if kv := fields["type"]; kv != nil {
		items := []*node{kv.value}
		if kv.value.kind == yaml.SequenceNode {
			items = kv.value.items
		}
		for _, it := range items {
			s, ok := stringLiteral(it)
			if !ok || s == "" {
				p.errorf(it.rng, "Invalid type", "type selects resources by type token, such as aws:s3/bucket:Bucket or aws:*; it must be a string or a list of strings.")
				continue
			}
			r.Types = append(r.Types, s)
		}
	}
	kv := fields["condition"]
	if kv == nil {
		p.errorf(k.rng, "Missing condition", "Policy %s has no condition; add one, such as condition: ${acl != \"public-read\"}, true when the resource complies.", k.value)
		return nil
	}
	r.Condition = p.expr(kv.value)
	if kv := fields["message"]; kv != nil {
		r.Message = p.expr(kv.value)
	}
	p.diags = append(p.diags, eval.CheckRule(r)...)
	return r
}
