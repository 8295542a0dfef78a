// Package runtimes holds the language hosts built into Cairn: they run
// programs written with Pulumi's Node.js (JavaScript and TypeScript), Go
// and Python SDKs with the language's own toolchain (node, go, python3)
// and the SDK the project installs, without Pulumi's
// pulumi-language-<runtime> binaries.
//
// Each host installs the program's dependencies when they are missing
// (npm, yarn, pnpm or bun by lock file or the packagemanager option; go mod
// download; a virtualenv and pip), lists the provider plugins the
// program's packages declare (the "pulumi" section of an npm package's
// package.json, a Go module's or Python distribution's
// pulumi-plugin.json), and runs the program as the SDK expects to be run:
// Node.js programs through @pulumi/pulumi's own runner, cmd/run (TypeScript
// through the SDK's ts-node, per the typescript and tsconfig options),
// Go programs built with go build (or the binary option's executable),
// Python programs through a launcher that sets the SDK up. The Node.js
// host also starts @pulumi/policy packs (PolicyPack).
//
//	h, ok := runtimes.New("nodejs", runtimes.Options{Engine: addr, Stdout: out, Stderr: out})
//	if err := h.Install(ctx, info, out); err != nil { ... }
//	resp, err := h.Run(ctx, req) // req.MonitorAddress is the deployment's monitor
package runtimes
