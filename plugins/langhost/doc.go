// Package langhost runs programs written for the Pulumi language SDKs
// (Node.js, Python, Go, .NET, Java, ...) as deploy.Program values.
//
// Run serves the deployment's monitor over gRPC (package monitor), starts
// the runtime's language host, pulumi-language-<runtime>, found as plugins
// are (package locate), and calls its Run method with the monitor's
// address, the project, stack and organization, the stack configuration
// (strings as they are, other values as JSON, secret keys listed), the
// dry-run flag and the parallelism. The program's SDK then declares its
// resources on the monitor; Run returns when the program has finished.
//
//	prog := &langhost.Program{Runtime: "nodejs", RootDirectory: proj.Dir, ProgramDirectory: proj.ProgramDir(),
//		Dirs: locate.DefaultDirs(), Diag: display}
//	res, err := deploy.Update(ctx, deploy.Options{Program: prog, ...}, base)
package langhost
