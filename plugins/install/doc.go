// Package install downloads Pulumi plugins into a plugin cache, in the
// layout Pulumi uses: <kind>-<name>-v<version>/ holding the binary
// pulumi-<kind>-<name> and whatever else the release tarball carries.
//
// Where a plugin comes from follows Pulumi's rules: an http(s) server URL
// (the tarball pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz beside
// it, ${NAME}, ${VERSION}, ${OS} and ${ARCH} interpolated), a GitHub
// release named github://<api-host>/<owner>[/<repo>] (the repository
// defaults to pulumi-<name>), or, with neither, Pulumi's own releases
// (github://api.github.com/pulumi/pulumi-<name>, then get.pulumi.com).
// Overrides given as regexp=URL pairs replace the URLs they match.
//
// A GitHub token goes, over https only, to api.github.com and the GitHub
// Enterprise hosts the installer is told to trust: never to a host a
// program's download URL names, nor on a redirect (a release asset's, to
// GitHub's storage) to a host not trusted with it. A download over plain
// http without a checksum is a warning.
//
// Installs are atomic and safe to run in parallel: each plugin has a lock
// file, the tarball is downloaded and extracted into a hidden temporary
// folder beside the cache and renamed into place only once complete, so no
// reader ever sees half a plugin.
//
//	in := install.Installer{Dir: filepath.Join(home, "plugins")}
//	dir, err := in.Install(ctx, install.Spec{Kind: locate.Resource, Name: "aws", Version: "6.0.0"})
package install
