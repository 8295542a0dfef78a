package childenv

import (
	"slices"
	"testing"
)

func TestFilter(t *testing.T) {
	base := []string{
		"PATH=/bin", "HOME=/root",
		"CAIRN_CONFIG_PASSPHRASE=hush", "PULUMI_CONFIG_PASSPHRASE=hush",
		"CAIRN_CONFIG_PASSPHRASE_FILE=/p", "PULUMI_CONFIG_PASSPHRASE_FILE=/p",
		"CAIRN_BACKEND_URL=postgres://u:pw@db/cairn", "PULUMI_BACKEND_URL=file:///s",
		"TF_TOKEN_example_com=tok", "TF_VAR_x=1", "AWS_SECRET_ACCESS_KEY=aws", "GITHUB_TOKEN=gh",
		"CAIRN_TERRAFORM_MOCKS=/tmp/mocks.json",
	}
	kept := []string{"PATH=/bin", "HOME=/root", "TF_VAR_x=1", "AWS_SECRET_ACCESS_KEY=aws", "GITHUB_TOKEN=gh"}
	tests := []struct {
		name  string
		allow string // the AllowEnv entry, if any
		want  []string
	}{
		{"no allow-list", "", kept},
		{"allowed", AllowEnv + "=TF_TOKEN_example_com, CAIRN_BACKEND_URL",
			append(slices.Clone(kept), "CAIRN_BACKEND_URL=postgres://u:pw@db/cairn", "TF_TOKEN_example_com=tok")},
		{"empty allow-list", AllowEnv + "=", kept},
		{"the mocks file is never passed", AllowEnv + "=CAIRN_TERRAFORM_MOCKS", kept},
	}
	for _, tt := range tests {
		env := slices.Clone(base)
		want := tt.want
		if tt.allow != "" {
			env = append(env, tt.allow)
			want = append(slices.Clone(want), tt.allow)
		}
		got := Filter(env)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, want)
		}
	}
}

func TestFilterKeepsItsInput(t *testing.T) {
	env := []string{"CAIRN_CONFIG_PASSPHRASE=hush", "PATH=/bin"}
	Filter(env)
	if env[0] != "CAIRN_CONFIG_PASSPHRASE=hush" || env[1] != "PATH=/bin" {
		t.Errorf("Filter changed its input: %q", env)
	}
}

func TestInherited(t *testing.T) {
	t.Setenv("CAIRN_CONFIG_PASSPHRASE", "pass")
	t.Setenv("PLAIN", "x")
	t.Setenv(AllowEnv, "")
	if Inherited("CAIRN_CONFIG_PASSPHRASE") {
		t.Error("the passphrase is inherited without CAIRN_CHILD_ENV_ALLOW")
	}
	if !Inherited("PLAIN") || Inherited("UNSET_VARIABLE_OF_THE_TEST") {
		t.Error("Inherited of a plain variable, or of an unset one, is wrong")
	}
	t.Setenv(AllowEnv, "CAIRN_CONFIG_PASSPHRASE")
	if !Inherited("CAIRN_CONFIG_PASSPHRASE") {
		t.Error("the passphrase is not inherited though CAIRN_CHILD_ENV_ALLOW names it")
	}
}
