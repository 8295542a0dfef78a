// Package locate finds plugin binaries on disk: resource providers
// (pulumi-resource-<name>) and language hosts (pulumi-language-<name>).
//
// Three places are searched, as Pulumi searches them:
//
//   - Cairn's plugin folder, $CAIRN_HOME/plugins (default ~/.cairn/plugins),
//     which may hold binaries directly or in versioned folders;
//   - Pulumi's plugin cache, $PULUMI_HOME/plugins (default
//     ~/.pulumi/plugins), whose folders are named <kind>-<name>-v<version>;
//   - the folders of $PATH.
//
// A binary in a versioned folder has that version; one found directly in a
// folder has none that Cairn can tell without running it. Best picks the
// requested version when it is installed, else the newest versioned binary
// compatible with it, and falls back to an unversioned one, so a pinned
// cache wins over whatever happens to be on PATH. InFolder reads a
// project's plugin path, the folder holding the binary in Pulumi's
// definition.
//
//	dirs := locate.DefaultDirs()
//	c, ok := locate.Best(dirs.Find(locate.Resource, "aws"), "6.0.0")
package locate
