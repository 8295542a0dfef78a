package runtimes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// NodeJS runs JavaScript and TypeScript programs written with Pulumi's
// Node.js SDK, @pulumi/pulumi, through the SDK's own program runner in the
// project's node_modules, with node from PATH.
type NodeJS struct{ Options }

// nodeOptions are the runtime options of a nodejs project, as Pulumi
// documents them.
type nodeOptions struct {
	typescript     bool     // run TypeScript through the SDK's ts-node (the default)
	tsconfig       string   // the tsconfig.json ts-node reads
	nodeargs       []string // node's arguments, given split at white space
	packagemanager string   // npm, yarn, pnpm or bun; "" chooses by lock file
}

func parseNodeOptions(opts map[string]any) (nodeOptions, error) {
	o := nodeOptions{typescript: true}
	var nodeargs string
	err := errors.Join(
		option(opts, "typescript", &o.typescript),
		option(opts, "tsconfig", &o.tsconfig),
		option(opts, "nodeargs", &nodeargs),
		option(opts, "packagemanager", &o.packagemanager),
	)
	if err != nil {
		return o, err
	}
	o.nodeargs = strings.Fields(nodeargs)
	switch o.packagemanager {
	case "", "auto", "npm", "yarn", "pnpm", "bun":
	default:
		return o, fmt.Errorf("runtime option packagemanager is %q; use npm, yarn, pnpm or bun", o.packagemanager)
	}
	return o, nil
}

// Install installs the program's dependencies when @pulumi/pulumi cannot be
// found from its folder, with the package manager the runtime option
// packagemanager names, or else the one whose lock file is there.
func (n NodeJS) Install(ctx context.Context, info *pulumirpc.ProgramInfo, out io.Writer) error {
	dir := info.GetProgramDirectory()
	if _, ok := NodeSDK(dir); ok {
		return nil
	}
	opts, err := parseNodeOptions(info.GetOptions().AsMap())
	if err != nil {
		return err
	}
	root, ok := searchUp(dir, "package.json")
	if !ok {
		return nil // Run explains that the SDK is missing
	}
	root = filepath.Dir(root)
	pm := opts.packagemanager
	if pm == "" || pm == "auto" {
		pm = packageManager(root)
	}
	return install(ctx, out, root, "@pulumi/pulumi is not in node_modules", pm, "install")
}

// packageManager returns the package manager whose lock file is in dir,
// npm when there is none.
func packageManager(dir string) string {
	for _, pm := range []struct{ lock, name string }{
		{"yarn.lock", "yarn"}, {"pnpm-lock.yaml", "pnpm"}, {"bun.lock", "bun"}, {"bun.lockb", "bun"},
	} {
		if _, err := os.Stat(filepath.Join(dir, pm.lock)); err == nil {
			return pm.name
		}
	}
	return "npm"
}

// RequiredPackages lists the provider plugins of the packages in the
// program's node_modules (the nearest one up from its folder) whose
// package.json marks them as Pulumi resource packages.
func (n NodeJS) RequiredPackages(_ context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	nm, ok := searchUp(info.GetProgramDirectory(), "node_modules")
	if !ok {
		return nil, nil
	}
	return nodePackages(nm)
}

// Run runs the program with the SDK's runner, @pulumi/pulumi/cmd/run, which
// takes the deployment's settings as arguments and the configuration from
// the environment.
func (n NodeJS) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	opts, err := parseNodeOptions(info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	node, err := Node()
	if err != nil {
		return nil, err
	}
	sdk, ok := NodeSDK(info.GetProgramDirectory())
	if !ok {
		return nil, missingNodeSDK(info.GetProgramDirectory())
	}
	args := append(opts.nodeargs, filepath.Join(sdk, "cmd", "run"),
		"--monitor", req.GetMonitorAddress(), "--engine", n.Engine,
		"--project", req.GetProject(), "--stack", req.GetStack(),
		"--root-directory", info.GetRootDirectory(), "--pwd", info.GetProgramDirectory(),
		"--parallel", strconv.Itoa(int(req.GetParallel())))
	if org := req.GetOrganization(); org != "" {
		args = append(args, "--organization", org)
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	args = append(append(args, info.GetEntryPoint()), req.GetArgs()...)
	// The SDK reads keys of the form <namespace>:config:<key>, as older
	// versions of it require.
	config := make(map[string]string, len(req.GetConfig()))
	for k, v := range req.GetConfig() {
		ns, key, _ := strings.Cut(k, ":")
		config[ns+":config:"+key] = v
	}
	env, err := configEnv(config, req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env = append(env, opts.env()...)
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = info.GetProgramDirectory()
	return n.run(ctx, "nodejs", cmd, env), nil
}

// env returns the variables that tell the SDK's runners how to load
// TypeScript.
func (o nodeOptions) env() []string {
	var env []string
	if o.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return env
}

// PolicyPackStack is the stack a policy pack checks.
type PolicyPackStack struct {
	Organization, Project, Stack string
	DryRun                       bool
	// Config is the stack's configuration as strings, by "<ns>:<key>".
	Config map[string]string
}

// PolicyPack returns the command that starts the @pulumi/policy pack in
// dir as an analyzer plugin, which prints its port and serves Pulumi's
// Analyzer protocol: node running the SDK's policy pack runner with the
// engine's address and the pack's folder, told the stack in its
// environment.
func (n NodeJS) PolicyPack(dir string, options map[string]any, stack PolicyPackStack) (path string, args, env []string, err error) {
	opts, err := parseNodeOptions(options)
	if err != nil {
		return "", nil, nil, err
	}
	node, err := Node()
	if err != nil {
		return "", nil, nil, err
	}
	sdk, ok := NodeSDK(dir)
	if !ok {
		return "", nil, nil, missingNodeSDK(dir)
	}
	env, err = configEnv(stack.Config, nil)
	if err != nil {
		return "", nil, nil, err
	}
	env = append(env, opts.env()...)
	for k, v := range map[string]string{"ORGANIZATION": stack.Organization, "PROJECT": stack.Project, "STACK": stack.Stack} {
		if v != "" {
			env = append(env, "PULUMI_NODEJS_"+k+"="+v)
		}
	}
	env = append(env, "PULUMI_NODEJS_DRY_RUN="+strconv.FormatBool(stack.DryRun))
	args = append(append(opts.nodeargs, filepath.Join(sdk, "cmd", "run-policy-pack")), n.Engine, dir)
	return node, args, env, nil
}

// Node returns the path of node.
func Node() (string, error) {
	p, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("the Node.js language host built into Cairn needs node on PATH: install Node.js (with npm), " +
			"or set CAIRN_LANGUAGE_HOST=pulumi to use Pulumi's pulumi-language-nodejs")
	}
	return p, nil
}

// NodeSDK returns the folder of @pulumi/pulumi as node finds it from dir:
// in the node_modules of dir or of a folder above it.
func NodeSDK(dir string) (string, bool) {
	p, ok := searchUp(dir, filepath.Join("node_modules", "@pulumi", "pulumi", "package.json"))
	return filepath.Dir(p), ok
}

func missingNodeSDK(dir string) error {
	return fmt.Errorf("@pulumi/pulumi is not installed in %s or a folder above it: add it to the program's package.json and run npm install (or yarn, pnpm)", dir)
}

// searchUp returns the first of dir/name, dir/../name, ... that exists.
func searchUp(dir, name string) (string, bool) {
	for {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// NodeSDKDir returns the folder of @pulumi/pulumi for a program in dir: where
// node finds it, or, before the program's dependencies are installed,
// where installing them puts it (beside the nearest package.json); "" when
// dir has no Node.js package.
func NodeSDKDir(dir string) string {
	if sdk, ok := NodeSDK(dir); ok {
		return sdk
	}
	if p, ok := searchUp(dir, "package.json"); ok {
		return filepath.Join(filepath.Dir(p), "node_modules", "@pulumi", "pulumi")
	}
	return ""
}
