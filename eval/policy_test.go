package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
)

func TestPolicyPackAnalyze(t *testing.T) {
	urn := resource.NewURN("dev", "p", "", "aws:s3/bucket:Bucket", "logs")
	bucket := func(inputs resource.Map) policy.Resource {
		return policy.Resource{URN: urn, Type: "aws:s3/bucket:Bucket", Name: "logs", Custom: true, Inputs: inputs}
	}
	tests := []struct {
		name      string
		types     []string
		condition string
		message   string
		inputs    resource.Map
		want      string // the message of the one violation, "" for none
	}{
		{"holds", nil, `acl != "public-read"`, "", resource.Map{"acl": resource.String("private")}, ""},
		{"violated", nil, `acl != "public-read"`, `"${resource.name} is ${acl}"`, resource.Map{"acl": resource.String("public-read")}, "logs is public-read"},
		{"unset input is null", nil, `acl != null`, "", resource.Map{}, "no description"},
		{"unknown holds", nil, `acl != "public-read"`, "", resource.Map{"acl": resource.Unknown()}, ""},
		{"other type", []string{"aws:ec2/*"}, `false`, "", resource.Map{}, ""},
		{"type glob", []string{"aws:s3/*"}, `false`, "", resource.Map{}, "no description"},
		{"secret part of a message", nil, `false`, `"key ${key} of ${resource.name}"`, resource.Map{"key": resource.MakeSecret(resource.String("hunter2"))}, "key [secret] of logs"},
		{"secret message", nil, `false`, `upper(key)`, resource.Map{"key": resource.MakeSecret(resource.String("hunter2"))}, "[secret]"},
		{"unknown part of a message", nil, `false`, `"acl ${acl}, ${length(acl)} long"`, resource.Map{"acl": resource.Unknown()}, "acl (known after apply), (known after apply) long"},
		{"null message", nil, `false`, `null`, resource.Map{}, "no description"},
		{"secret condition", nil, `key != "hunter2"`, "", resource.Map{"key": resource.MakeSecret(resource.String("hunter2"))}, "no description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &eval.Rule{Name: "r", Description: "no description", Level: policy.Mandatory, Types: tt.types, Condition: expr(t, tt.condition)}
			if tt.message != "" {
				r.Message = expr(t, tt.message)
			}
			p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{r}}
			vs, err := p.Analyze(context.Background(), bucket(tt.inputs))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if len(vs) == 1 {
				got = vs[0].Message
				if vs[0].URN != urn || vs[0].Pack != "pack" || vs[0].Policy != "r" || vs[0].Level != policy.Mandatory {
					t.Errorf("violation = %+v", vs[0])
				}
			}
			if got != tt.want || len(vs) > 1 {
				t.Errorf("violations = %+v, want message %q", vs, tt.want)
			}
		})
	}
}

func TestPolicyPackAnalyzeStack(t *testing.T) {
	r := &eval.Rule{Name: "few", Stack: true, Level: policy.Advisory,
		Condition: expr(t, `length([for r in resources : r if r.type == "t:m:T"]) <= 1`),
		Message:   expr(t, `"${length(resources)} resources"`)}
	p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{r}}
	one := []policy.Resource{{URN: "urn:a", Type: "t:m:T", Name: "a"}}
	if vs, err := p.AnalyzeStack(context.Background(), one); err != nil || len(vs) != 0 {
		t.Errorf("one resource: %+v, %v", vs, err)
	}
	two := append(one, policy.Resource{URN: "urn:b", Type: "t:m:T", Name: "b"})
	vs, err := p.AnalyzeStack(context.Background(), two)
	if err != nil || len(vs) != 1 || vs[0].Message != "2 resources" || vs[0].URN != "" {
		t.Errorf("two resources: %+v, %v", vs, err)
	}
}

func TestPolicyPackEvaluationError(t *testing.T) {
	r := &eval.Rule{Name: "r", Level: policy.Advisory, Condition: expr(t, `acl + 1`)}
	p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{r}}
	_, err := p.Analyze(context.Background(), policy.Resource{URN: "urn:x", Inputs: resource.Map{"acl": resource.String("private")}})
	if err == nil {
		t.Fatal("a condition that cannot be evaluated gave no error")
	}
	if got := err.Error(); !strings.Contains(got, "test.hcl") || !strings.Contains(got, "policy r, on urn:x") {
		t.Errorf("error = %q, want it to name the rule, the resource and the file", got)
	}
}

// An error in a message is reported with its position, on one line, in
// the violation, which the description (or the rule's name) stands for.
func TestPolicyPackMessageError(t *testing.T) {
	for desc, want := range map[string]string{
		"":              `Policy r is violated. (Its message failed: test.hcl:1:12: Unsupported attribute: This object does not have an attribute named "nme".)`,
		"Be not short.": `Be not short. (Its message failed: test.hcl:1:12: Unsupported attribute: This object does not have an attribute named "nme".)`,
	} {
		r := &eval.Rule{Name: "r", Description: desc, Level: policy.Advisory, Condition: expr(t, `false`), Message: expr(t, `"${resource.nme} is short"`)}
		p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{r}}
		vs, err := p.Analyze(context.Background(), policy.Resource{URN: "urn:x"})
		if err != nil || len(vs) != 1 || vs[0].Message != want {
			t.Errorf("violations = %+v, %v; want one with the message %s", vs, err, want)
		}
	}
}

// bucketSchema serves a schema whose bucket type has the inputs acl and
// tags.
type bucketSchema struct{}

func (bucketSchema) Schema(_ context.Context, pkg, _ string) (*schema.Package, error) {
	return &schema.Package{Name: pkg, Resources: map[string]*schema.Resource{
		"aws:s3/bucket:Bucket": {InputProperties: map[string]*schema.Property{"acl": {}, "tags": {}}},
	}}, nil
}

// With the schemas, a name that is not an input of the resource's type is
// an error that names it, where it is written, with the closest input; an
// input the resource does not set is null.
func TestPolicyPackUndefinedName(t *testing.T) {
	bucket := policy.Resource{URN: "urn:b", Type: "aws:s3/bucket:Bucket", Custom: true, Inputs: resource.Map{"acl": resource.String("private")}}
	for _, tc := range []struct {
		condition, message, want string
	}{
		{`length(tgas) < 3`, ``, `policy r, on urn:b: evaluating its condition: test.hcl:1:8: Unknown name: tgas is not an input of aws:s3/bucket:Bucket (by the names of its schema), nor resource, the resource's urn, type, name and inputs. Did you mean "tags"?`},
		{`tags == null && acl == "private"`, ``, ``},
		{`false`, `"${resource.name} has ${lenght(acl)}"`, `violation: Policy r is violated. (Its message failed: test.hcl:1:25: Call to unknown function: There is no function named "lenght". Did you mean "length"?)`},
		{`false`, `"${resource.name} is ${alc}"`, `violation: Policy r is violated. (Its message failed: test.hcl:1:24: Unknown name: alc is not an input of aws:s3/bucket:Bucket (by the names of its schema), nor resource, the resource's urn, type, name and inputs. Did you mean "acl"?)`},
	} {
		r := &eval.Rule{Name: "r", Level: policy.Advisory, Condition: expr(t, tc.condition)}
		if tc.message != "" {
			r.Message = expr(t, tc.message)
		}
		p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{r}, Schemas: bucketSchema{}}
		vs, err := p.Analyze(context.Background(), bucket)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case len(vs) > 0:
			got = "violation: " + vs[0].Message
		}
		if got != tc.want {
			t.Errorf("%s, %s:\ngot:  %s\nwant: %s", tc.condition, tc.message, got, tc.want)
		}
	}
}

// Analyzers are called from many goroutines at once.
func TestPolicyPackConcurrent(t *testing.T) {
	p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{{Name: "r", Level: policy.Advisory, Condition: expr(t, `upper(name) != "X"`)}}}
	done := make(chan struct{})
	for range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			if _, err := p.Analyze(context.Background(), policy.Resource{URN: "urn:x", Inputs: resource.Map{"name": resource.String("x")}}); err != nil {
				t.Error(err)
			}
		}()
	}
	for range 8 {
		<-done
	}
}
