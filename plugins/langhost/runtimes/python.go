package runtimes

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/childenv"
)

// Python runs programs written with Pulumi's Python SDK, the pulumi
// package: python3, or the one of the project's virtualenv, runs Cairn's
// launcher, which sets the SDK up from the environment and runs the
// program.
type Python struct{ Options }

//go:embed python_launcher.py
var pythonLauncher string

// pythonOptions are the runtime options of a python project, as Pulumi
// documents them.
type pythonOptions struct {
	virtualenv string // the virtualenv's folder, relative to the project's
	toolchain  string // pip, the only one Cairn's host supports
}

func parsePythonOptions(opts map[string]any) (pythonOptions, error) {
	var o pythonOptions
	if err := errors.Join(option(opts, "virtualenv", &o.virtualenv), option(opts, "toolchain", &o.toolchain)); err != nil {
		return o, err
	}
	if o.toolchain != "" && o.toolchain != "pip" {
		return o, fmt.Errorf("the runtime option toolchain is %s; Cairn's Python language host runs pip projects only: "+
			"set CAIRN_LANGUAGE_HOST=pulumi to run it with Pulumi's pulumi-language-python", o.toolchain)
	}
	return o, nil
}

// python returns the interpreter that runs the program: the virtualenv's,
// or python3 from PATH.
func (o pythonOptions) python(root string) (string, error) {
	if o.virtualenv != "" {
		return filepath.Join(o.venv(root), venvBin, "python"), nil
	}
	for _, name := range []string{"python3", "python"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("the Python language host built into Cairn needs python3 on PATH: install Python, " +
		"or set CAIRN_LANGUAGE_HOST=pulumi to use Pulumi's pulumi-language-python")
}

func (o pythonOptions) venv(root string) string {
	if filepath.IsAbs(o.virtualenv) {
		return o.virtualenv
	}
	return filepath.Join(root, o.virtualenv)
}

// venvBin is the folder of a virtualenv that holds its interpreter.
var venvBin = map[bool]string{true: "Scripts", false: "bin"}[runtime.GOOS == "windows"]

// Install creates the virtualenv the runtime option virtualenv names when
// it is missing, and installs the project's requirements.txt into it.
// Without a virtualenv the program runs with the packages python3 has.
func (p Python) Install(ctx context.Context, info *pulumirpc.ProgramInfo, out io.Writer) error {
	opts, err := parsePythonOptions(info.GetOptions().AsMap())
	if err != nil || opts.virtualenv == "" {
		return err
	}
	root := info.GetRootDirectory()
	venv := opts.venv(root)
	python, _ := opts.python(root)
	if _, err := os.Stat(python); err == nil {
		return nil
	}
	system, err := pythonOptions{}.python(root)
	if err != nil {
		return err
	}
	if err := install(ctx, out, root, venv+" is missing", system, "-m", "venv", venv); err != nil {
		return err
	}
	reqs := filepath.Join(info.GetProgramDirectory(), "requirements.txt")
	if _, err := os.Stat(reqs); err != nil {
		return nil
	}
	return install(ctx, out, root, "the virtualenv is new", python, "-m", "pip", "install", "-r", reqs)
}

// RequiredPackages lists the provider plugins of the installed
// distributions whose pulumi-plugin.json marks them as Pulumi resource
// packages.
func (p Python) RequiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	opts, err := parsePythonOptions(info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	python, err := opts.python(info.GetRootDirectory())
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, python, "-c", pythonLauncher, "plugins")
	cmd.Dir, cmd.Env = info.GetProgramDirectory(), childenv.Environ()
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the Python packages with %s: %w", python, err)
	}
	var found []struct {
		pluginJSON
		Distribution        string `json:"distribution"`
		DistributionVersion string `json:"distributionVersion"`
	}
	if err := json.Unmarshal(b, &found); err != nil {
		return nil, fmt.Errorf("listing the Python packages with %s: %w", python, err)
	}
	var out []*pulumirpc.PackageDependency
	for _, f := range found {
		if !f.Resource {
			continue
		}
		// The distribution pulumi_aws serves the plugin aws.
		name, ok := strings.CutPrefix(strings.ReplaceAll(strings.ToLower(f.Distribution), "_", "-"), "pulumi-")
		if !ok && f.Name == "" {
			continue
		}
		out = append(out, f.dependency(name, f.DistributionVersion))
	}
	return out, nil
}

// Run runs the program with the launcher.
func (p Python) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	opts, err := parsePythonOptions(info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	python, err := opts.python(info.GetRootDirectory())
	if err != nil {
		return nil, err
	}
	env, err := p.sdkEnv(req)
	if err != nil {
		return nil, err
	}
	program := filepath.Join(info.GetProgramDirectory(), info.GetEntryPoint())
	cmd := exec.CommandContext(ctx, python, append([]string{"-u", "-c", pythonLauncher, "run", program}, req.GetArgs()...)...)
	cmd.Dir = req.GetPwd()
	return p.run(ctx, "python", cmd, env), nil
}
