package runtimes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/childenv"
)

// Go runs programs written with Pulumi's Go SDK: built with go build in the
// program's folder, or the executable the runtime option binary names, run
// with the deployment's settings in the environment the SDK reads.
type Go struct{ Options }

// goOptions are the runtime options of a go project, as Pulumi documents
// them.
type goOptions struct {
	binary      string // a prebuilt program to run instead of building one
	buildTarget string // where go build writes the program, kept after the run
}

func parseGoOptions(opts map[string]any) (goOptions, error) {
	var o goOptions
	if err := errors.Join(option(opts, "binary", &o.binary), option(opts, "buildTarget", &o.buildTarget)); err != nil {
		return o, err
	}
	if o.binary != "" && o.buildTarget != "" {
		return o, errors.New("the runtime options binary and buildTarget exclude each other: give one")
	}
	return o, nil
}

// Install downloads the modules the program's go.mod requires with
// go mod download, when some are missing from the module cache.
func (g Go) Install(ctx context.Context, info *pulumirpc.ProgramInfo, out io.Writer) error {
	opts, err := parseGoOptions(info.GetOptions().AsMap())
	if err != nil || opts.binary != "" {
		return err
	}
	mod, err := readGoMod(info.GetProgramDirectory())
	if err != nil || mod == nil {
		return err
	}
	missing := mod.missing()
	if missing == "" {
		return nil
	}
	gobin, err := goTool()
	if err != nil {
		return err
	}
	return install(ctx, out, mod.dir, missing+" is not in the module cache", gobin, "mod", "download")
}

// RequiredPackages lists the provider plugins of the modules the program's
// go.mod requires that hold a pulumi-plugin.json marking them as Pulumi
// resource packages.
func (g Go) RequiredPackages(_ context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	mod, err := readGoMod(info.GetProgramDirectory())
	if err != nil || mod == nil {
		return nil, err
	}
	return mod.packages()
}

// Run builds the program, unless the runtime option binary names it, and
// runs it.
func (g Go) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	opts, err := parseGoOptions(info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	program := opts.binary
	if program != "" {
		if program, err = findBinary(dir, program); err != nil {
			return nil, err
		}
	} else {
		if program, err = g.build(ctx, dir, opts.buildTarget); err != nil {
			return nil, err
		}
		if opts.buildTarget == "" {
			defer os.Remove(program)
		}
	}
	env, err := g.sdkEnv(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, program, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	return g.run(ctx, "go", cmd, env), nil
}

// build compiles the program in dir to target, or to a temporary file when
// target is empty, and returns the executable's path.
func (g Go) build(ctx context.Context, dir, target string) (string, error) {
	gobin, err := goTool()
	if err != nil {
		return "", err
	}
	if target == "" {
		f, err := os.CreateTemp("", "cairn-go-program-*")
		if err != nil {
			return "", err
		}
		target = f.Name()
		f.Close()
	} else if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	cmd := exec.CommandContext(ctx, gobin, "build", "-buildvcs=false", "-o", target, ".")
	out := &tail{}
	w := io.MultiWriter(orDiscard(g.Stderr), out)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, childenv.Environ(), w, w
	ownGroup(cmd)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the go program in %s with go build: %w%s", dir, err, out.describe())
	}
	return target, nil
}

// findBinary finds the executable the runtime option binary names: a path
// relative to the program's folder, or a command on PATH.
func findBinary(dir, name string) (string, error) {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, name)
	}
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if !strings.ContainsRune(name, filepath.Separator) {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("the runtime option binary names %s, which is neither in %s nor on PATH: build it first (go build -o %s)", name, dir, name)
}

// goTool returns the path of the go command.
func goTool() (string, error) {
	p, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("the Go language host built into Cairn needs go on PATH to build the program: install Go, " +
			"or build the program yourself and name it with the runtime option binary")
	}
	return p, nil
}
