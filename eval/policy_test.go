package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
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

// An error in a message is reported with its position, on one line.
func TestPolicyPackMessageError(t *testing.T) {
	r := &eval.Rule{Name: "r", Level: policy.Advisory, Condition: expr(t, `false`), Message: expr(t, `"${resource.nme} is short"`)}
	p := &eval.PolicyPack{Pack: "pack", Rules: []*eval.Rule{r}}
	_, err := p.Analyze(context.Background(), policy.Resource{URN: "urn:x"})
	want := `policy r, on urn:x: evaluating its message: test.hcl:1:12: Unsupported attribute: This object does not have an attribute named "nme".`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
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
