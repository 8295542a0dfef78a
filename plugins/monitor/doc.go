// Package monitor serves a deployment's deploy.Monitor over gRPC, as the
// Pulumi ResourceMonitor service, so that programs written with the Pulumi
// language SDKs (and component providers constructing children) can declare
// resources to Cairn. The same port also serves the engine's services
// (package enginesvc): Engine, whose log messages become diagnostics, gRPC
// health, and, given a provider host, the schema Loader.
//
// Requests are read keeping every kind of value (secrets, unknowns,
// resource references, output values) and with asset hashes computed;
// answers are written with what each request says its SDK accepts
// (acceptSecrets, acceptResources, supportsPartialValues). RegisterResource,
// RegisterResourceOutputs, ReadResource, Invoke, Call, SupportsFeature,
// RegisterPackage and SignalAndWaitForShutdown are served; the other methods
// answer UNIMPLEMENTED, which SDKs tolerate. A registration whose step
// failed is answered UNAVAILABLE, as Pulumi's engine does, so that the SDK
// stops quietly while the engine reports the error.
//
//	srv, err := monitor.Serve(info.Monitor, monitor.Options{Diag: display})
//	defer srv.Close()
//	// PULUMI_MONITOR=srv.Addr(), PULUMI_ENGINE=srv.Addr()
package monitor
