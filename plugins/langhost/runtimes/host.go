package runtimes

import (
	"context"
	"io"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Host is a language host built into Cairn: the part of Pulumi's
// LanguageRuntime service an engine needs to run a program.
type Host interface {
	// Install installs the program's dependencies when they are missing,
	// writing what it runs, and what that prints, to out.
	Install(ctx context.Context, info *pulumirpc.ProgramInfo, out io.Writer) error
	// RequiredPackages lists the provider plugins the program needs.
	RequiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error)
	// Run runs the program to completion. A program that fails is
	// reported in the response: Bail when its SDK has reported why.
	Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error)
}

var (
	_ Host = NodeJS{}
	_ Host = Go{}
	_ Host = Python{}
)

// New returns Cairn's own host for runtime, or false when it has none.
func New(runtime string, o Options) (Host, bool) {
	switch runtime {
	case "nodejs":
		return NodeJS{o}, true
	case "go":
		return Go{o}, true
	case "python":
		return Python{o}, true
	}
	return nil, false
}

// Tool returns the command the built-in host of runtime runs programs
// with, as found on PATH: node, go or python3.
func Tool(runtime string) (string, error) {
	switch runtime {
	case "nodejs":
		return Node()
	case "go":
		return goTool()
	}
	return pythonOptions{}.python("")
}

// Names are the runtimes that have a built-in host.
var Names = []string{"go", "nodejs", "python"}
