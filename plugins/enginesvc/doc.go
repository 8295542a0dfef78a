// Package enginesvc serves the Pulumi Engine gRPC service, the side channel
// that plugins and language hosts use to talk back to the engine: Log, whose
// messages become diagnostics in the display, and GetRootResource /
// SetRootResource, where SDKs keep the URN of the stack resource. The other
// methods answer UNIMPLEMENTED.
//
//	srv := enginesvc.New(func(e deploy.DiagEvent) { events <- e })
//	pulumirpc.RegisterEngineServer(grpcServer, srv)
package enginesvc
