// Package enginesvc serves what Pulumi's plugins and language hosts expect
// of the engine they talk back to. The Engine service: Log, whose messages
// become diagnostics in the display, and GetRootResource /
// SetRootResource, where SDKs keep the URN of the stack resource (its other
// methods answer UNIMPLEMENTED). The standard gRPC health service, which
// language hosts poll and stop without. And the schema Loader of Pulumi's
// codegen protocol, which language hosts (Pulumi YAML's among them) ask for
// the schemas of the packages a program uses, parameterized ones included;
// it is served from a provider host.
//
//	enginesvc.Register(grpcServer, enginesvc.Options{Diag: display, Host: resolver})
package enginesvc
