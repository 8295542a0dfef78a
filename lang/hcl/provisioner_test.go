package hcl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/langtest"
)

// logLines returns the lines of a stack's log.txt, sorted (instances
// run concurrently).
func logLines(s *langtest.Stack) []string {
	data, _ := os.ReadFile(filepath.Join(s.Dir, "log.txt"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	sort.Strings(lines)
	return lines
}

// TestProvisioners runs local-exec provisioners as Terraform runs them:
// creation-time ones once their instance is created, with self,
// count.index and each.key, before what depends on it; nothing on an update that changes nothing or
// changes the resource in place; destroy-time ones (with self as last
// recorded) then creation-time ones on a replacement; destroy-time ones
// on a destroy, which runs no program.
func TestProvisioners(t *testing.T) {
	s := langtest.NewStack(t, load)
	program := func(input, trigger string) string {
		return fmt.Sprintf(`
resource "terraform_data" "a" {
  count            = 2
  input            = %q
  triggers_replace = %q
  provisioner "local-exec" {
    command     = "echo created ${self.output} ${count.index} >> log.txt"
    working_dir = %q
  }
  provisioner "local-exec" {
    when        = destroy
    command     = "echo destroyed ${self.output} ${count.index} >> log.txt"
    working_dir = %q
  }
}
resource "terraform_data" "b" {
  for_each = toset(["k"])
  provisioner "local-exec" {
    command = "echo created b ${each.key} >> %s/log.txt"
  }
}
resource "terraform_data" "c" {
  depends_on = [terraform_data.a]
  provisioner "local-exec" {
    command = "grep -c 'created .* [01]$' %s/log.txt > %s/count.txt"
  }
}
`, input, trigger, s.Dir, s.Dir, s.Dir, s.Dir, s.Dir)
	}
	s.Write("main.hcl", program("one", "1"))
	s.Up()
	langtest.Equal(t, "create", logLines(s), []string{"created b k", "created one 0", "created one 1"})
	count, _ := os.ReadFile(filepath.Join(s.Dir, "count.txt"))
	langtest.Equal(t, "what depends on a resource waits for its provisioners", string(count), "2\n")

	langtest.Equal(t, "no change", s.Up(), []string(nil))
	s.Write("main.hcl", program("two", "1"))
	langtest.Equal(t, "in-place update", s.Up(), []string{"update a[0]", "update a[1]"})
	langtest.Equal(t, "nothing runs on an update", logLines(s), []string{"created b k", "created one 0", "created one 1"})

	if err := os.Remove(filepath.Join(s.Dir, "log.txt")); err != nil {
		t.Fatal(err)
	}
	s.Write("main.hcl", program("two", "2"))
	langtest.Equal(t, "replace", s.Up(), []string{"replace a[0]", "replace a[0]", "replace a[1]", "replace a[1]"})
	langtest.Equal(t, "a replacement runs both", logLines(s), []string{"created two 0", "created two 1", "destroyed two 0", "destroyed two 1"})

	if err := os.Remove(filepath.Join(s.Dir, "log.txt")); err != nil {
		t.Fatal(err)
	}
	s.Destroy()
	langtest.Equal(t, "destroy", logLines(s), []string{"destroyed two 0", "destroyed two 1"})
}

// TestProvisionersCreateBeforeDestroy runs the creation-time
// provisioners of the replacement of a create_before_destroy resource,
// and not the destroy-time ones of the object it replaces, as Terraform
// runs none for a deposed object; a destroy runs them.
func TestProvisionersCreateBeforeDestroy(t *testing.T) {
	s := langtest.NewStack(t, load)
	program := func(generation string) string {
		return fmt.Sprintf(`
resource "terraform_data" "c" {
  input            = %q
  triggers_replace = %q
  lifecycle {
    create_before_destroy = true
  }
  provisioner "local-exec" {
    command = "echo created ${self.output} >> %s/log.txt"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo destroyed ${self.output} >> %s/log.txt"
  }
}
`, generation, generation, s.Dir, s.Dir)
	}
	s.Write("main.hcl", program("1"))
	s.Up()
	s.Write("main.hcl", program("2"))
	langtest.Equal(t, "replace", s.Up(), []string{"replace c", "update c"})
	langtest.Equal(t, "the replacement's provisioners only", logLines(s), []string{"created 1", "created 2"})
	s.Destroy()
	langtest.Equal(t, "destroy", logLines(s), []string{"created 1", "created 2", "destroyed 2"})
}

// TestProvisionerErrors refuses, where they are written, what Cairn does
// not run (file and remote-exec provisioners, connection blocks) and
// what a provisioner cannot say.
func TestProvisionerErrors(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"file": {`provisioner "file" {
    source      = "a"
    destination = "/tmp/a"
  }`, `main.hcl:3,15-21: Unsupported provisioner "file"; Cairn runs local-exec provisioners only`},
		"remote-exec": {`provisioner "remote-exec" {
    inline = ["true"]
  }`, `main.hcl:3,15-28: Unsupported provisioner "remote-exec"`},
		"connection": {`connection {
    host = "a"
  }`, `main.hcl:3,3-13: Unsupported connection block`},
		"nested connection": {`provisioner "local-exec" {
    command = "true"
    connection {
      host = "a"
    }
  }`, `main.hcl:5,5-15: Unsupported connection block`},
		"when": {`provisioner "local-exec" {
    command = "true"
    when    = later
  }`, `main.hcl:5,15-20: Invalid "when" keyword`},
		"on_failure": {`provisioner "local-exec" {
    command    = "true"
    on_failure = ignore
  }`, `main.hcl:5,18-24: Invalid "on_failure" keyword`},
		"destroy reference": {`provisioner "local-exec" {
    command = "echo ${var.x}"
    when    = destroy
  }`, `main.hcl:4,23-28: Invalid reference from destroy provisioner`},
		"no command": {`provisioner "local-exec" {
  }`, `Missing required argument; The argument "command" is required`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src := "variable \"x\" {}\nresource \"terraform_data\" \"a\" {\n  " + tc.body + "\n}\n"
			if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := load(dir)
			if errs := strings.ReplaceAll(diags.Error(), dir+string(filepath.Separator), ""); !strings.Contains(errs, tc.want) {
				t.Errorf("errors %q do not say %q", errs, tc.want)
			}
		})
	}
}
