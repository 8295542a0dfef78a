package hcl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/langtest"
)

// TestMovedRename renames a resource, an instance set and a module with
// moved blocks: nothing is created, deleted or replaced, and the state is
// under the new names, also after the moved blocks are gone.
func TestMovedRename(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("main.hcl", `
resource "test_thing" "old" { name = "x" }
resource "test_thing" "many" {
  count = 2
  name  = "m${count.index}"
}
module "site" { source = "./site" }
`)
	s.Write("site/site.hcl", `resource "test_thing" "inner" { name = "inner" }`)
	langtest.Equal(t, "create", s.Up(), []string{"create default", "create many[0]", "create many[1]", "create old",
		"create roundtrip-test", "create site", "create site.inner"})
	id := s.Find("old").ID

	s.Write("main.hcl", `
resource "test_thing" "new" { name = "x" }
resource "test_thing" "several" {
  count = 2
  name  = "m${count.index}"
}
module "web" { source = "./site" }
moved {
  from = test_thing.old
  to   = test_thing.new
}
moved {
  from = test_thing.many
  to   = test_thing.several
}
moved {
  from = module.site
  to   = module.web
}
`)
	langtest.Equal(t, "rename", s.Up(), []string(nil))
	langtest.Equal(t, "renamed keeps its ID", s.Find("new").ID, id)
	for _, gone := range []string{"old", "many[0]", "site", "site.inner"} {
		if s.Find(gone) != nil {
			t.Errorf("%s is still in the state", gone)
		}
	}
	for _, there := range []string{"several[0]", "several[1]", "web", "web.inner"} {
		if s.Find(there) == nil {
			t.Errorf("%s is not in the state", there)
		}
	}

	s.Write("main.hcl", `
resource "test_thing" "new" { name = "x" }
resource "test_thing" "several" {
  count = 2
  name  = "m${count.index}"
}
module "web" { source = "./site" }
`)
	langtest.Equal(t, "moved blocks removed", s.Up(), []string(nil))
}

// TestMovedChain follows chained moved blocks (a to b, b to c) as
// OpenTofu does: the state of a moves to c, nothing is created or deleted.
func TestMovedChain(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("main.hcl", `resource "test_thing" "a" { name = "a" }`)
	langtest.Equal(t, "create", s.Up(), []string{"create a", "create default", "create roundtrip-test"})
	id := s.Find("a").ID
	s.Write("main.hcl", `
resource "test_thing" "c" { name = "a" }
moved {
  from = test_thing.a
  to   = test_thing.b
}
moved {
  from = test_thing.b
  to   = test_thing.c
}
`)
	langtest.Equal(t, "chained move", s.Up(), []string(nil))
	if r := s.Find("c"); r == nil || r.ID != id {
		t.Errorf("c is not a, moved: %+v", r)
	}
}

// TestMovedBetweenModules moves resources into a module, out of one,
// between instances of a module, and from count to for_each keys: nothing
// is created, deleted or replaced.
func TestMovedBetweenModules(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("main.hcl", `
resource "test_thing" "a" { name = "a" }
module "one" { source = "./one" }
module "two" { source = "./two" }
module "keyed" {
  source   = "./keyed"
  for_each = toset(["x"])
}
resource "test_thing" "counted" {
  count = 1
  name  = "c"
}
`)
	s.Write("one/main.hcl", `
resource "test_thing" "inner" { name = "inner" }
resource "test_thing" "stays" { name = "stays" }
`)
	s.Write("two/main.hcl", `resource "test_thing" "b" { name = "b" }`)
	s.Write("keyed/main.hcl", `resource "test_thing" "k" { name = "k" }`)
	langtest.Equal(t, "create", s.Up(), []string{"create a", "create counted[0]", "create default", "create keyed[\"x\"]",
		"create keyed[\"x\"].k", "create one", "create one.inner", "create one.stays", "create roundtrip-test", "create two", "create two.b"})
	ids := map[string]resource.ID{}
	for _, n := range []string{"a", "one.inner", "keyed[\"x\"].k", "counted[0]"} {
		ids[n] = s.Find(n).ID
	}

	s.Write("main.hcl", `
module "one" { source = "./one" }
module "two" { source = "./two" }
resource "test_thing" "inner" { name = "inner" }
module "keyed" {
  source   = "./keyed"
  for_each = toset(["y"])
}
resource "test_thing" "counted" {
  for_each = toset(["c"])
  name     = each.key
}
moved {
  from = test_thing.a
  to   = module.two.test_thing.a
}
moved {
  from = module.one.test_thing.inner
  to   = test_thing.inner
}
moved {
  from = module.keyed["x"].test_thing.k
  to   = module.keyed["y"].test_thing.k
}
moved {
  from = test_thing.counted[0]
  to   = test_thing.counted["c"]
}
`)
	s.Write("one/main.hcl", `resource "test_thing" "stays" { name = "stays" }`)
	s.Write("two/main.hcl", `
resource "test_thing" "b" { name = "b" }
resource "test_thing" "a" { name = "a" }
`)
	// The component keyed["x"] goes (it has no resources left); the
	// instance keyed["y"] is new. Nothing else changes.
	langtest.Equal(t, "move", s.Up(), []string{"create keyed[\"y\"]", "delete keyed[\"x\"]"})
	for old, now := range map[string]string{"a": "two.a", "one.inner": "inner", "keyed[\"x\"].k": "keyed[\"y\"].k", "counted[0]": `counted["c"]`} {
		if r := s.Find(now); r == nil || r.ID != ids[old] {
			t.Errorf("%s is not %s, moved: %+v", now, old, r)
		}
	}
}

// TestCountShrink shrinks a count: only the dropped instance is deleted,
// and growing it again creates only the new one.
func TestCountShrink(t *testing.T) {
	s := langtest.NewStack(t, load)
	program := func(n int) string {
		return fmt.Sprintf(`
resource "test_thing" "web" {
  count = %d
  name  = "web-${count.index}"
}
output "names" { value = test_thing.web[*].name }
`, n)
	}
	s.Write("main.hcl", program(3))
	langtest.Equal(t, "create", s.Up(), []string{"create default", "create roundtrip-test", "create web[0]", "create web[1]", "create web[2]"})
	first := s.Find("web[0]").ID
	s.Write("main.hcl", program(2))
	langtest.Equal(t, "shrink", s.Up(), []string{"delete web[2]"})
	langtest.Equal(t, "kept", s.Find("web[0]").ID, first)
	s.Write("main.hcl", program(4))
	langtest.Equal(t, "grow", s.Up(), []string{"create web[2]", "create web[3]"})
}

// TestForEachKeyChange changes the keys of a for_each: the instance of the
// dropped key is deleted, the new key's created, the others left alone,
// and an instance that refers to another by its key follows it.
func TestForEachKeyChange(t *testing.T) {
	s := langtest.NewStack(t, load)
	program := func(keys string) string {
		return fmt.Sprintf(`
resource "test_thing" "env" {
  for_each = toset([%s])
  name     = each.key
}
resource "test_thing" "dns" {
  for_each = toset([%s])
  name     = "${test_thing.env[each.key].name}.example"
}
`, keys, keys)
	}
	s.Write("main.hcl", program(`"a", "b"`))
	s.Up()
	s.Write("main.hcl", program(`"a", "c"`))
	langtest.Equal(t, "key change", s.Up(), []string{`create dns["c"]`, `create env["c"]`, `delete dns["b"]`, `delete env["b"]`})
	langtest.Equal(t, "dns of c", s.Find(`dns["c"]`).Inputs["name"].StringValue(), "c.example")
}

// TestRemovedForget removes two resources from the program: the one a
// removed block forgets leaves the state without being deleted (its delete
// command does not run), the other is deleted.
func TestRemovedForget(t *testing.T) {
	s := langtest.NewStack(t, load)
	logFile := filepath.Join(s.Dir, "log.txt")
	command := func(name string) string {
		return fmt.Sprintf(`
resource "command_local_command" "%s" {
  dir    = %q
  create = "echo created %s >> log.txt"
  delete = "echo deleted %s >> log.txt"
}
`, name, s.Dir, name, name)
	}
	s.Write("main.hcl", command("kept")+command("deleted"))
	s.Up()
	s.Write("main.hcl", `
removed {
  from = command_local_command.kept
  lifecycle {
    destroy = false
  }
}
removed {
  from = command_local_command.deleted
  lifecycle {
    destroy = true
  }
}
`)
	langtest.Equal(t, "remove", s.Up(), []string{"delete default", "delete deleted", "discard kept"})
	if s.Find("kept") != nil {
		t.Error("the forgotten resource is still in the state")
	}
	data, _ := os.ReadFile(logFile)
	lines := strings.Fields(strings.ReplaceAll(string(data), " ", "-"))
	sort.Strings(lines)
	langtest.Equal(t, "log", lines, []string{"created-deleted", "created-kept", "deleted-deleted"})
}

// TestRemovedModule forgets whole modules, one with instances and one
// with a module in it, once their blocks are gone: nothing is deleted.
func TestRemovedModule(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("main.hcl", `
module "site" { source = "./site" }
module "many" {
  source = "./leaf"
  count  = 2
}
resource "test_thing" "other" { name = "other" }
`)
	s.Write("site/main.hcl", `
resource "test_thing" "a" { name = "a" }
module "inner" { source = "../leaf" }
`)
	s.Write("leaf/main.hcl", `resource "test_thing" "leaf" { name = "leaf" }`)
	s.Up()
	s.Write("main.hcl", `
resource "test_thing" "other" { name = "other" }
removed {
  from = module.site
  lifecycle {
    destroy = false
  }
}
removed {
  from = module.many
  lifecycle {
    destroy = false
  }
}
`)
	langtest.Equal(t, "remove", s.Up(), []string{"discard many[0]", "discard many[0].leaf", "discard many[1]", "discard many[1].leaf",
		"discard site", "discard site.a", "discard site.inner", "discard site.inner.leaf"})
	if s.Find("other") == nil || s.Find("site.a") != nil {
		t.Error("the state after forgetting modules is wrong")
	}
}

// TestRemovedInModule forgets a resource of a module with a removed block
// of its caller: the module's resource leaves the stack, undeleted.
func TestRemovedInModule(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("main.hcl", `module "site" { source = "./site" }`)
	s.Write("site/main.hcl", `
resource "test_thing" "kept" { name = "kept" }
resource "test_thing" "stays" { name = "stays" }
`)
	s.Up()
	s.Write("site/main.hcl", `resource "test_thing" "stays" { name = "stays" }`)
	s.Write("main.hcl", `
module "site" { source = "./site" }
removed {
  from = module.site.test_thing.kept
  lifecycle {
    destroy = false
  }
}
`)
	langtest.Equal(t, "remove", s.Up(), []string{"discard site.kept"})
}

// TestReplacementOrder checks the default order of a replacement, delete
// before create as in Terraform, and create_before_destroy, also where a
// resource that depends on the replaced one has it (Terraform propagates
// it to dependencies), there through a module's input.
func TestReplacementOrder(t *testing.T) {
	const dependent = `
resource "command_local_command" "user" {
  dir    = command_local_command.step.dir
  create = "true"
  lifecycle {
    create_before_destroy = true
  }
}`
	for _, tc := range []struct {
		lifecycle, other string
		want             string
	}{
		{"", "", "created one\ndeleted\ncreated two\n"},
		{"lifecycle {\n create_before_destroy = true\n}", "", "created one\ncreated two\ndeleted\n"},
		{"", dependent, "created one\ncreated two\ndeleted\n"},
		{"", "module \"user\" {\n  source = \"./user\"\n  dir    = command_local_command.step.dir\n}", "created one\ncreated two\ndeleted\n"},
	} {
		s := langtest.NewStack(t, load)
		s.Write("user/main.hcl", `
variable "dir" {}
resource "command_local_command" "user" {
  dir    = var.dir
  create = "true"
  lifecycle {
    create_before_destroy = true
  }
}`)
		program := func(trigger string) string {
			return fmt.Sprintf(`
resource "command_local_command" "step" {
  dir      = %q
  create   = "echo created %s >> log.txt"
  delete   = "echo deleted >> log.txt"
  triggers = [%q]
  %s
}
%s`, s.Dir, trigger, trigger, tc.lifecycle, tc.other)
		}
		s.Write("main.hcl", program("one"))
		s.Up()
		s.Write("main.hcl", program("two"))
		langtest.Equal(t, "replace", s.Up(), []string{"replace step"})
		data, _ := os.ReadFile(filepath.Join(s.Dir, "log.txt"))
		langtest.Equal(t, "order with "+tc.lifecycle+tc.other, string(data), tc.want)
	}
}

// TestImportBlock adopts an existing resource with an import block, then
// keeps managing it once the block is gone.
func TestImportBlock(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("main.hcl", `
resource "test_thing" "adopted" { name = "adopted" }
import {
  to = test_thing.adopted
  id = "existing-id"
}
`)
	langtest.Equal(t, "import", s.Up(), []string{"create default", "create roundtrip-test", "import adopted"})
	langtest.Equal(t, "ID", s.Find("adopted").ID, "existing-id")
	s.Write("main.hcl", `resource "test_thing" "adopted" { name = "adopted" }`)
	langtest.Equal(t, "after import", s.Up(), []string(nil))
}

// TestImportForEachIntoModule imports with for_each into the instances
// of a module's resource, as OpenTofu does; the module's other instances
// are created.
func TestImportForEachIntoModule(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("files/main.hcl", `
variable "names" {}
resource "test_thing" "f" {
  for_each = toset(var.names)
  name     = "adopted"
}
`)
	s.Write("main.hcl", `
module "files" {
  source = "./files"
  names  = ["a", "b", "c"]
}
import {
  for_each = { a = "existing-id-a", b = "existing-id-b" }
  to       = module.files.test_thing.f[each.key]
  id       = each.value
}
`)
	langtest.Equal(t, "import", s.Up(), []string{"create default", "create files", `create files.f["c"]`, "create roundtrip-test",
		`import files.f["a"]`, `import files.f["b"]`})
	langtest.Equal(t, "ID", s.Find(`files.f["b"]`).ID, "existing-id-b")
}

// TestTerraformPlanning plans as Terraform does: a data source that
// depends on a resource with changes is read at the update (its value is
// unknown in the preview), and replace_triggered_by naming a whole
// resource replaces on any change of it, in the order asked for.
func TestTerraformPlanning(t *testing.T) {
	s := langtest.NewStack(t, load)
	program := func(length int) string {
		return fmt.Sprintf(`
resource "test_thing" "a" {
  name   = "a"
  length = %d
}

data "test_get_thing" "d" {
  name = test_thing.a.name
}

resource "test_thing" "b" {
  name  = "b"
  items = [data.test_get_thing.d.upper]
}

resource "test_thing" "c" {
  name = "c"
  lifecycle {
    replace_triggered_by = [test_thing.a]
  }
}

resource "test_thing" "e" {
  name = "e"
  lifecycle {
    replace_triggered_by = [test_thing.a.name]
  }
}
`, length)
	}
	s.Write("main.tf", program(1))
	langtest.Equal(t, "create", s.Up(), []string{"create a", "create b", "create c", "create default", "create e", "create roundtrip-test"})
	langtest.Equal(t, "no change", s.Preview(), []string(nil))

	s.Write("main.tf", program(2))
	langtest.Equal(t, "preview", s.Preview(), []string{"replace c", "update a", "update b"})
	langtest.Equal(t, "update", s.Up(), []string{"replace c", "update a"})
}
