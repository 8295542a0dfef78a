package plugintest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// LanguageHostRole is a minimal language host, pulumi-language-<name>, that
// runs a prebuilt program binary (its entry point, relative to the program
// folder) with the environment the Pulumi SDKs read, as the real Go
// language host runs a compiled program. It does not implement Handshake.
func LanguageHostRole(name string) Role {
	return Role{Name: "pulumi-language-" + name, Run: func(ctx context.Context, args []string) error {
		if len(args) == 0 {
			return fmt.Errorf("usage: pulumi-language-%s <engine address>", name)
		}
		host := &languageHost{engine: args[len(args)-1]}
		return ServeGRPC(ctx, func(s *grpc.Server) { pulumirpc.RegisterLanguageRuntimeServer(s, host) })
	}}
}

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engine string
}

// Run runs the program and reports its output as the error when it fails.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	config, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	info := req.GetInfo()
	cmd := exec.CommandContext(ctx, filepath.Join(info.GetProgramDirectory(), info.GetEntryPoint()), req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(os.Environ(),
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+h.engine,
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_ROOT_DIRECTORY="+info.GetRootDirectory(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	os.Stderr.Write(out.Bytes())
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("%v\n%s", err, out.String())}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// CrashingHostRole is a language host, pulumi-language-<name>, whose Run
// writes a line to stderr and panics, as a host hitting a bug does.
func CrashingHostRole(name string) Role {
	return Role{Name: "pulumi-language-" + name, Run: func(ctx context.Context, _ []string) error {
		return ServeGRPC(ctx, func(s *grpc.Server) { pulumirpc.RegisterLanguageRuntimeServer(s, crashingHost{}) })
	}}
}

type crashingHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
}

func (crashingHost) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	fmt.Fprintln(os.Stderr, "reading the program")
	panic("the program's loader has gone missing")
}
