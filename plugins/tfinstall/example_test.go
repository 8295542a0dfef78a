package tfinstall_test

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/cairn-iac/cairn/plugins/tfinstall"
)

// An air-gapped machine installs hashicorp/null from a filesystem mirror
// named in its CLI configuration, and the project's lock file records it.
func ExampleInstall() {
	root, _ := os.MkdirTemp("", "tfinstall-example")
	defer os.RemoveAll(root)

	// A mirror holding one packed package, as "tofu providers mirror"
	// writes them.
	mirror := filepath.Join(root, "mirror")
	pkgDir := filepath.Join(mirror, "registry.opentofu.org", "hashicorp", "null")
	os.MkdirAll(pkgDir, 0o755)
	f, _ := os.Create(filepath.Join(pkgDir, "terraform-provider-null_3.2.1_"+runtime.GOOS+"_"+runtime.GOARCH+".zip"))
	z := zip.NewWriter(f)
	w, _ := z.Create("terraform-provider-null_v3.2.1")
	w.Write([]byte("#!/bin/sh\n"))
	z.Close()
	f.Close()

	cliConfig := filepath.Join(root, "cairn.tfrc")
	os.WriteFile(cliConfig, []byte(fmt.Sprintf(`
provider_installation {
  filesystem_mirror {
    path = %q
  }
}`, mirror)), 0o644)
	project := filepath.Join(root, "project")
	os.Mkdir(project, 0o755)

	pkg, err := tfinstall.Install(context.Background(), tfinstall.Options{
		ProjectDir:    project,
		CLIConfigFile: cliConfig,
		CacheDir:      filepath.Join(root, "cairn-home", "plugins", "terraform"),
	}, tfinstall.Request{Source: "hashicorp/null", Constraints: "~> 3.2"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(pkg.Source, pkg.Version, filepath.Base(pkg.Executable))
	locks, _ := tfinstall.ReadLocks(project)
	lock := locks[pkg.Source]
	fmt.Printf("locked %s (%s) with %d hash\n", lock.Version, lock.Constraints, len(lock.Hashes))
	// Output:
	// registry.opentofu.org/hashicorp/null 3.2.1 terraform-provider-null_v3.2.1
	// locked 3.2.1 (~> 3.2) with 1 hash
}
