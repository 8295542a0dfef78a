// Package tfinstall installs Terraform providers the way OpenTofu users
// expect: from the same registries and mirrors, under the same CLI
// configuration, recording and checking the same .terraform.lock.hcl.
// It installs a configuration's modules too (Modules), as tofu init does.
//
// Addresses, versions and constraints are read by plugins/tfaddr, with
// OpenTofu's libraries. A provider's source address is
// [hostname/]namespace/type, case-folded; without a hostname it is on
// registry.opentofu.org (tfaddr.DefaultHost), as in OpenTofu, and
// registry.terraform.io/... is accepted as a host of its own. Versions
// follow Terraform's constraint syntax (=, !=, >, >=, <, <=, ~>,
// comma-separated); prereleases are chosen only by an exact constraint,
// and the newest release that meets the constraints wins.
//
// Where providers come from is the Terraform CLI configuration's
// provider_installation block, read with the file and folder rules of
// OpenTofu (Options.CLIConfigFile, TF_CLI_CONFIG_FILE, ~/.tofurc,
// ~/.terraformrc, ~/.terraform.d/*.tfrc): its direct, filesystem_mirror and
// network_mirror methods with their include and exclude patterns, tried in
// order, the newest version across them winning, and its dev_overrides,
// which bypass versions and checksums. Without the block, the implied
// local mirrors (terraform.d/plugins in the project, ~/.terraform.d/plugins,
// the XDG data folders' opentofu/plugins and terraform/plugins) serve the
// providers they hold, and the providers' registries serve the rest.
// plugin_cache_dir (or TF_PLUGIN_CACHE_DIR) is read: an entry there whose
// hash the lock file records is used where it is.
//
// From a registry, Install follows the provider registry protocol:
// service discovery (OpenTofu's svchost/disco: /.well-known/terraform.json
// or a host block of the CLI configuration, providers.v1), the
// versions, then the download of this platform's zip, checked against the
// registry's shasum and its SHA256SUMS file, whose detached OpenPGP
// signature must verify with one of the keys the registry lists. As in
// OpenTofu, only registry.opentofu.org may serve packages with no key
// (OPENTOFU_ENFORCE_GPG_VALIDATION=true refuses those too). The token of
// a provider's or module's host (TF_TOKEN_<host>, or the CLI
// configuration's credentials block) goes with discovery and the
// registry's requests, as OpenTofu sends it, even to the other host its
// discovery may name; never with archive downloads, nor after a redirect
// to another host or from https to http. A network mirror gets the token
// of its own host.
//
// The lock file in Options.ProjectDir is read and written in Terraform's
// format, atomically, keeping the header of a file "terraform init" made,
// so that Terraform, OpenTofu and Cairn can share it without churn. A
// version it locks is kept while it meets the constraints. It records each package's h1: hash (golang.org/x/mod's
// dirhash of the unpacked files) and, from a registry whose checksums are
// signed, the zh: hashes (SHA-256 of the zips) of every platform, so the
// file checks out on the team's other machines; unsigned checksums are not
// recorded. A package that matches
// none of the hashes locked for its version is refused with an error
// naming the file, the provider and both sets of hashes.
//
// Packages are installed into Options.CacheDir in the unpacked layout
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/, with the package's h1: hash
// recorded in OS_ARCH.h1 beside it; a locked version already there is
// used without network access, and one the lock file does not record is
// used only if it still matches that record. With Options.Offline only folders are
// searched. A provider found nowhere is reported with every place looked
// in and what each had.
//
//	pkg, err := tfinstall.Install(ctx, tfinstall.Options{
//		ProjectDir: ".",
//		CacheDir:   filepath.Join(cairnHome, "plugins", "terraform"),
//	}, tfinstall.Request{Source: "hashicorp/null", Constraints: "~> 3.2"})
//	if err != nil {
//		return err
//	}
//	cmd := exec.Command(pkg.Executable) // speaks the plugin protocol
//
// Modules come from module registries (modules.v1, newest version meeting
// the constraints), archives over http(s) and git repositories (with the
// git program), in go-getter's address forms with //subdir. Each call is
// installed in .terraform/modules/<key> and recorded in Terraform's
// manifest, modules.json, which Terraform, OpenTofu and Cairn share; a
// call whose source and version still match its record is not fetched
// again.
package tfinstall
