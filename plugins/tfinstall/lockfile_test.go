package tfinstall

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// openTofuLockFile is a lock file as tofu init writes it.
const openTofuLockFile = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.2"
  hashes = [
    "h1:ydA0/SNRVB1o95btfshvYsmxA+jZFRZcvKzZSB+4S1M=",
    "zh:58ed64389620cc7b82f01332e27723856422820cfd302e304b5f6c3436fb9840",
    "zh:62a5cc82c3b2ddef7ef3a6f2fedb7b9b3deff4ab7b414938b08e51d6e8be87cb",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=",
  ]
}
`

func TestLockFileRoundTrip(t *testing.T) {
	locks, err := ParseLocks([]byte(openTofuLockFile), LockFileName)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lock{
		"registry.opentofu.org/hashicorp/null": {
			Source: "registry.opentofu.org/hashicorp/null", Version: "3.2.1", Constraints: "~> 3.2",
			Hashes: []string{
				"h1:ydA0/SNRVB1o95btfshvYsmxA+jZFRZcvKzZSB+4S1M=",
				"zh:58ed64389620cc7b82f01332e27723856422820cfd302e304b5f6c3436fb9840",
				"zh:62a5cc82c3b2ddef7ef3a6f2fedb7b9b3deff4ab7b414938b08e51d6e8be87cb",
			},
		},
		"registry.terraform.io/hashicorp/random": {
			Source: "registry.terraform.io/hashicorp/random", Version: "3.6.0",
			Hashes: []string{"h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w="},
		},
	}
	if !reflect.DeepEqual(locks, want) {
		t.Errorf("got %+v\nwant %+v", locks, want)
	}
	if got := string(FormatLocks(locks)); got != openTofuLockFile {
		t.Errorf("formatted differently from OpenTofu:\n%s", got)
	}

	dir := t.TempDir()
	if err := WriteLocks(dir, locks); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLocks(dir)
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Errorf("ReadLocks after WriteLocks: %+v, %v", back, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("writing left files behind: %v", entries)
	}
	if locks, err := ReadLocks(t.TempDir()); err != nil || len(locks) != 0 {
		t.Errorf("no lock file: %v, %v", locks, err)
	}
}

// TestWriteLocksKeepsHeader checks that a lock file Terraform made keeps
// Terraform's header, and that one whose content would not change is not
// rewritten.
func TestWriteLocksKeepsHeader(t *testing.T) {
	dir := t.TempDir()
	terraformMade := strings.Replace(openTofuLockFile, `"tofu init"`, `"terraform init"`, 1)
	path := writeFile(t, filepath.Join(dir, LockFileName), []byte(terraformMade))
	before, _ := os.Stat(path)
	locks, err := ReadLocks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteLocks(dir, locks); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(path); !os.SameFile(before, after) {
		t.Error("an unchanged lock file was rewritten")
	}
	locks["example.com/a/b"] = Lock{Source: "example.com/a/b", Version: "1.0.0"}
	if err := WriteLocks(dir, locks); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if !strings.HasPrefix(got, "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n\nprovider \"example.com/a/b\" {\n  version = \"1.0.0\"\n}\n") {
		t.Errorf("got:\n%s", got)
	}
}

func TestParseLocksErrors(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{`provider "hashicorp/null" { version = "1.0.0" }`, `x.hcl:1:10: Non-normalized provider source address: Write it as "registry.opentofu.org/hashicorp/null"`},
		{`provider "Registry.OpenTofu.org/hashicorp/null" { version = "1.0.0" }`, "x.hcl:1:10: Non-normalized provider source address"},
		{`provider "a/b/c/d" { version = "1.0.0" }`, "x.hcl:1:10: Invalid provider source address"},
		{`provider "terraform.io/builtin/terraform" { version = "1.0.0" }`, "built into Terraform"},
		{`provider "example.com/a/b" {}`, `x.hcl:1:28: Missing required argument: The argument "version" is required`},
		{`provider "example.com/a/b" { version = "1.0" }`, "x.hcl:1:40: Non-normalized provider version: Write the version of example.com/a/b as \"1.0.0\"."},
		{`provider "example.com/a/b" { version = "01.0.0" }`, `Non-normalized provider version: Write the version of example.com/a/b as "1.0.0"`},
		{`provider "example.com/a/b" {
  version = "1.0.0"
  constraints = ">=1.0"
}`, `x.hcl:3:17: Non-normalized provider version constraints: Write the constraints of example.com/a/b as ">= 1.0.0"`},
		{`provider "example.com/a/b" {
  version = "1.0.0"
  constraints = "=> 1.0"
}`, `x.hcl:3:17: Invalid provider version constraints`},
		{`provider "example.com/a/b" {
  version = "1.0.0"
  hashes = []
}`, "x.hcl:3:12: Invalid provider hash set: The hashes of example.com/a/b must hold at least one hash"},
		{`provider "example.com/a/b" {
  version = "1.0.0"
  hashes = ["deadbeef"]
}`, `x.hcl:3:13: Invalid provider hash: "deadbeef" has no scheme`},
		{`provider "example.com/a/b" {
  version = "1.0.0"
  hashes = "h1:x"
}`, "x.hcl:3:13: Invalid expression: A static list expression is required"},
		{`provider "example.com/a/b" { version = "1.0.0" }
provider "example.com/a/b" { version = "2.0.0" }`, "x.hcl:2:1: Duplicate provider lock: example.com/a/b is also locked at x.hcl:1:1"},
		{`provider "example.com/a/b" {
  version = "1.0.0"
  extra = 1
}`, `x.hcl:3:3: Unsupported argument`},
		{`resource "x" "y" {}`, "x.hcl:1:1: Unsupported block type"},
		{`provider "example.com/a/b" { version = "1.0.0"`, "x.hcl:1:"},
		{`provider "example.com/a/b" { version = var.x }`, "x.hcl:1:40: Variables not allowed"},
	}
	for _, tt := range tests {
		_, err := ParseLocks([]byte(tt.src), "x.hcl")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseLocks(%q):\n%v\nwant an error saying %q", tt.src, err, tt.want)
		}
	}
	// Terraform reserves module blocks; they are ignored.
	locks, err := ParseLocks([]byte(`module "x" {}
provider "example.com/a/b" { version = "1.0.0" }`), "x.hcl")
	if err != nil || len(locks) != 1 {
		t.Errorf("with a module block: %v, %v", locks, err)
	}
}

// FuzzParseLocks checks that the parser never panics and that whatever it
// accepts is written back in a form it reads as the same locks.
func FuzzParseLocks(f *testing.F) {
	f.Add([]byte(openTofuLockFile))
	f.Add([]byte(`provider "example.com/a/b" { version = "1.0.0-rc.1+x" constraints = "~> 1.0" hashes = ["h1:a", "h1:a", "x:y"] }`))
	f.Add([]byte(`provider "example.com/a/b" {
  version = "1.0.0"
  constraints = ">= 1.0.0, < 2.0.0"
}
`))
	f.Fuzz(func(t *testing.T, src []byte) {
		locks, err := ParseLocks(src, "fuzz.hcl")
		if err != nil {
			return
		}
		back, err := ParseLocks(FormatLocks(locks), "formatted.hcl")
		if err != nil {
			t.Fatalf("formatted locks do not parse: %v\n%s", err, FormatLocks(locks))
		}
		for k, l := range locks {
			l.Hashes = sortedUnique(l.Hashes)
			if len(l.Hashes) == 0 {
				l.Hashes = nil
			}
			locks[k] = l
		}
		if !maps.EqualFunc(locks, back, func(a, b Lock) bool {
			return a.Source == b.Source && a.Version == b.Version && a.Constraints == b.Constraints && slices.Equal(a.Hashes, b.Hashes)
		}) {
			t.Fatalf("round trip changed the locks:\n%+v\n%+v", locks, back)
		}
	})
}

func TestReadLocksNamesFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, LockFileName), []byte(`provider "x" {}`))
	_, err := ReadLocks(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, LockFileName)+":1:10") {
		t.Errorf("got %v", err)
	}
}
