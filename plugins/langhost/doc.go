// Package langhost runs programs written for the Pulumi language SDKs
// (Node.js, Go, Python, .NET, Java, ...) as deploy.Program values.
//
// Run serves the deployment's monitor over gRPC with the engine's services
// (package monitor: Engine, health and, from the provider host, the schema
// Loader) and chooses the language host (Choose): for nodejs, go and
// python, Cairn's own, in-process (package runtimes), which needs only the
// language's toolchain and the SDK the project installs; for other
// runtimes, or when CAIRN_LANGUAGE_HOST=pulumi asks for it, Pulumi's
// pulumi-language-<runtime>, found as plugins are (package locate) and
// started as a plugin. The host installs the program's dependencies when
// they are missing; the provider plugins the program needs are installed
// when missing, from the download URL the host names, if the Host can
// (PluginInstaller). Then the host runs the program with the monitor's and
// Loader's address, the project, stack and organization, the stack
// configuration (strings as they are, other values as JSON, secret keys
// listed), the program's folder, entry point and runtime options, the
// dry-run flag and the parallelism. The program's SDK then declares its
// resources on the monitor; Run returns when the program has finished. What
// a program run by Cairn's host prints becomes diagnostics; a Pulumi host
// that dies is reported with its last lines on stderr.
//
//	prog := &langhost.Program{Runtime: "nodejs", RootDirectory: proj.Dir, ProgramDirectory: proj.ProgramDir(),
//		Dirs: locate.DefaultDirs(), Host: resolver, Diag: display}
//	res, err := deploy.Update(ctx, deploy.Options{Program: prog, ...}, base)
package langhost
