package hcl

import (
	"sort"
	"strings"

	"github.com/agext/levenshtein"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// camel returns the camelCase spelling of a snake_case name, for names that
// no schema describes: override_special is overrideSpecial.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if p := parts[i]; p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "")
}

// typeName returns the Terraform-style name of a type token:
// <pkg>_[<module>_]<snake_case(Name)>, without the module when it is
// index, and without repeating a leading <pkg>_ of the snake-cased name.
// random:index/randomPet:RandomPet is random_pet, command:local:Command is
// command_local_command, aws:s3/bucket:Bucket is aws_s3_bucket.
func typeName(token string) string {
	pkg := resource.TypePackage(token)
	mod := resource.TypeModule(token)
	if i := strings.IndexByte(mod, '/'); i >= 0 {
		mod = mod[:i]
	}
	name := schema.SnakeCase(resource.TypeName(token))
	name = strings.TrimPrefix(name, pkg+"_")
	if mod != "" && mod != "index" {
		return pkg + "_" + schema.SnakeCase(mod) + "_" + name
	}
	return pkg + "_" + name
}

// TypeName returns the Terraform-style name a program may give a type
// token: random_pet for random:index/randomPet:RandomPet.
func TypeName(token string) string { return typeName(token) }

// closest returns up to n of the candidates nearest to name by edit
// distance, nearest first, leaving out those too far to be a likely typo.
func closest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	limit := max(3, len(name)/3)
	var out []scored
	for _, c := range candidates {
		if d := levenshtein.Distance(name, c, nil); d <= limit {
			out = append(out, scored{c, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].s < out[j].s
	})
	names := make([]string, 0, n)
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].s)
	}
	return names
}

// quoted renders names as "a", "b" or "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
