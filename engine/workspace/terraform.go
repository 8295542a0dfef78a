package workspace

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// TerraformFiles returns the Terraform configuration files of a folder,
// sorted: its *.tf and *.tf.json files, and OpenTofu's *.tofu and
// *.tofu.json, which stand in for the .tf (.tf.json) file of their name,
// leaving out those Terraform ignores (names beginning with "." or "#",
// or ending with "~").
func TerraformFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "#") && !strings.HasSuffix(name, "~") {
			names[name] = true
		}
	}
	var out []string
	for name := range names {
		tf, isTF := strings.CutSuffix(name, ".tf")
		tfJSON, isTFJSON := strings.CutSuffix(name, ".tf.json")
		switch {
		case strings.HasSuffix(name, ".tofu"), strings.HasSuffix(name, ".tofu.json"),
			isTF && !names[tf+".tofu"], isTFJSON && !names[tfJSON+".tofu.json"]:
			out = append(out, filepath.Join(dir, name))
		}
	}
	sort.Strings(out)
	return out
}

// terraformProject is the project of a folder of Terraform configuration
// files without a project file: named after the folder, with runtime hcl.
func terraformProject(dir string) *Project {
	name := strings.Map(func(r rune) rune {
		if r < 0x80 && projectNameRE.MatchString(string(r)) {
			return r
		}
		return '-'
	}, filepath.Base(dir))
	if strings.Trim(name, "-.") == "" {
		name = "terraform"
	}
	return &Project{Name: name, Runtime: "hcl", Dir: dir, Implied: true}
}

// hasProjectFile reports whether dir holds a project file.
func hasProjectFile(dir string) bool {
	for _, n := range ProjectFileNames {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}
