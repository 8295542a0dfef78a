package workspace

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseFastPath(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  FastPath
		err   string
	}{
		{names: nil, want: FastPath{}},
		{names: []string{"aws", " random", ""}, want: FastPath{Packages: []string{"aws", "random"}}},
		{names: []string{"all"}, want: FastPath{All: true}},
		{names: []string{" none "}, want: FastPath{None: true}},
		{names: []string{"all", "aws"}, err: "all stands alone"},
		{names: []string{"aws", "none"}, err: "none stands alone"},
		{names: []string{"aws random"}, err: `"aws random" is not a package name`},
	} {
		got, err := ParseFastPath(tc.names)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseFastPath(%q) = %v, want an error with %q", tc.names, err, tc.err)
		case tc.err == "" && (err != nil || !reflect.DeepEqual(got, tc.want)):
			t.Errorf("ParseFastPath(%q) = %+v, %v; want %+v", tc.names, got, err, tc.want)
		}
	}
}

func TestProjectFastPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "Pulumi.yaml")
	for _, tc := range []struct {
		setting string
		want    *FastPath
		err     string
	}{
		{setting: "", want: nil},
		{setting: "cairn:\n  fastPath: [aws, random]\n", want: &FastPath{Packages: []string{"aws", "random"}}},
		{setting: "cairn:\n  fastPath:\n    - aws\n", want: &FastPath{Packages: []string{"aws"}}},
		{setting: "cairn:\n  fastPath: all\n", want: &FastPath{All: true}},
		{setting: "cairn:\n  fastPath: none\n", want: &FastPath{None: true}},
		{setting: "cairn:\n  fastPath: [all, aws]\n", err: "Pulumi.yaml:4:13: cairn.fastPath: all stands alone"},
		{setting: "cairn:\n  fastPath: {aws: true}\n", err: "Pulumi.yaml:4:13: cairn.fastPath: give package names"},
		{setting: "cairn:\n  fastpath: all\n", err: "Pulumi.yaml:4:3: cairn: fastpath is not a setting of Cairn; the settings are fastPath"},
		{setting: "cairn: all\n", err: "Pulumi.yaml:3:8: cairn: must be a mapping"},
	} {
		write(t, path, "name: site\nruntime: yaml\n"+tc.setting)
		p, err := ReadProject(path)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: err = %v, want one with %q", tc.setting, err, tc.err)
		case tc.err == "" && (err != nil || !reflect.DeepEqual(p.FastPath, tc.want)):
			t.Errorf("%q: FastPath = %+v, %v; want %+v", tc.setting, p.FastPath, err, tc.want)
		}
	}
}
