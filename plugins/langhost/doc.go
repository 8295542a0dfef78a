// Package langhost runs programs written for the Pulumi language SDKs
// (Node.js, Python, Go, .NET, Java, ...) as deploy.Program values.
//
// Run serves the deployment's monitor over gRPC with the engine's services
// (package monitor: Engine, health and, from the provider host, the schema
// Loader), starts the runtime's language host, pulumi-language-<runtime>,
// found as plugins are (package locate), and handshakes. When the host
// cannot list the program's dependencies it installs them
// (InstallDependencies); the provider plugins the program needs
// (GetRequiredPackages) are installed when missing, from the download URL
// the host names, if the Host can (PluginInstaller). Then it calls the host's Run with the
// monitor's and Loader's address, the project, stack and organization, the
// stack configuration (strings as they are, other values as JSON, secret
// keys listed), the program's folder, entry point and runtime options, the
// dry-run flag and the parallelism. The program's SDK then declares its
// resources on the monitor; Run returns when the program has finished. A
// host that dies is reported with its last lines on stderr.
//
//	prog := &langhost.Program{Runtime: "nodejs", RootDirectory: proj.Dir, ProgramDirectory: proj.ProgramDir(),
//		Dirs: locate.DefaultDirs(), Host: resolver, Diag: display}
//	res, err := deploy.Update(ctx, deploy.Options{Program: prog, ...}, base)
package langhost
