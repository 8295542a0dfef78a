package hcl

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/engine/schema"
)

func TestTypeName(t *testing.T) {
	tests := map[string]string{
		"random:index/randomPet:RandomPet":       "random_pet",
		"random:index/randomString:RandomString": "random_string",
		"random:index/randomUuid4:RandomUuid4":   "random_uuid4",
		"command:local:Command":                  "command_local_command",
		"command:local:run":                      "command_local_run",
		"aws:s3/bucket:Bucket":                   "aws_s3_bucket",
		"aws:ec2/vpcEndpoint:VpcEndpoint":        "aws_ec2_vpc_endpoint",
		"test:index:Thing":                       "test_thing",
		"pulumi:pulumi:StackReference":           "pulumi_pulumi_stack_reference",
	}
	for token, want := range tests {
		if got := typeName(token); got != want {
			t.Errorf("typeName(%q) = %q, want %q", token, got, want)
		}
	}
}

func TestSnakeAndCamel(t *testing.T) {
	tests := []struct{ camel, snake string }{
		{"overrideSpecial", "override_special"},
		{"b64Std", "b64_std"},
		{"minLower", "min_lower"},
		{"HTTPServer", "http_server"},
		{"SelfSignedCert", "self_signed_cert"},
		{"keepers", "keepers"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := schema.SnakeCase(tc.camel); got != tc.snake {
			t.Errorf("schema.SnakeCase(%q) = %q, want %q", tc.camel, got, tc.snake)
		}
	}
	for _, tc := range tests[:3] {
		if got := camel(tc.snake); got != tc.camel {
			t.Errorf("camel(%q) = %q, want %q", tc.snake, got, tc.camel)
		}
	}
}

func TestClosest(t *testing.T) {
	got := closest("random_strng", []string{"random_pet", "random_string", "random_strings", "random_bytes"}, 3)
	if want := []string{"random_string", "random_strings"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("closest: got %v, want %v", got, want)
	}
	if got := quoted([]string{"a", "b", "c"}); got != `"a", "b" or "c"` {
		t.Errorf("quoted: got %s", got)
	}
}
