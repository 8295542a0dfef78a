package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/serve"
)

// The environment variables of the files plugin.
const (
	filesLogEnv   = "CAIRN_FILES_LOG"         // the file it appends "start" and each call to
	filesDelayEnv = "CAIRN_FILES_CHECK_DELAY" // how long each Check sleeps
)

// filesPlugin serves package files, a provider as many third-party ones
// are: its Check reads a file, so its answer depends on more than its
// inputs, and it does not declare InputsOnly. Its resource
// files:index:Doc takes a path; Check adds the file's content to the
// inputs and Diff compares them. It appends "start" when it starts and
// "Check NAME", "Diff NAME" for each call to $CAIRN_FILES_LOG.
func filesPlugin() {
	logFiles("start")
	f := provider.Factory{Pkg: "files", Version: "1.0.0", New: func(context.Context) (provider.Provider, error) { return files{}, nil }}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve.Main(ctx, f, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func logFiles(format string, args ...any) {
	f, err := os.OpenFile(os.Getenv(filesLogEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, format+"\n", args...)
	f.Close()
}

type files struct{ provider.Unimplemented }

func (files) Pkg() string { return "files" }

func (files) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: "1.0.0"}, nil
}

func (files) GetSchema(context.Context, provider.GetSchemaRequest) ([]byte, error) {
	return []byte(`{"name":"files","version":"1.0.0","resources":{"files:index:Doc":{
		"inputProperties":{"path":{"type":"string"}},"requiredInputs":["path"],
		"properties":{"path":{"type":"string"},"content":{"type":"string"}}}}}`), nil
}

func (files) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	logFiles("Check %s", req.URN.Name())
	if d, err := time.ParseDuration(os.Getenv(filesDelayEnv)); err == nil {
		time.Sleep(d)
	}
	path := req.News["path"]
	if !path.IsString() {
		return provider.CheckResponse{Failures: []provider.CheckFailure{{Property: "path", Reason: "path must be a string"}}}, nil
	}
	data, err := os.ReadFile(path.StringValue())
	if err != nil {
		return provider.CheckResponse{}, err
	}
	inputs := req.News.Copy()
	inputs["content"] = resource.String(string(data))
	return provider.CheckResponse{Inputs: inputs}, nil
}

func (files) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	logFiles("Diff %s", req.URN.Name())
	dd, changed := resource.DiffMaps(req.OldInputs, req.News)
	if len(changed) == 0 {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	return provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: changed, DetailedDiff: dd}, nil
}

func (files) Create(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	return provider.CreateResponse{ID: resource.ID(req.URN.Name()), Outputs: req.Inputs}, nil
}

func (files) Update(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	return provider.UpdateResponse{Outputs: req.News}, nil
}

func (files) Delete(context.Context, provider.DeleteRequest) error { return nil }

func TestFastPathHint(t *testing.T) {
	slow := &deploy.Result{Changes: map[deploy.Op]int{deploy.OpSame: 3}, Duration: 4 * time.Second,
		Untrusted: map[string]int{"aws": 1, "random": 2}, UntrustedTime: 3 * time.Second}
	hint := fastPathHint(slow)
	for _, want := range []string{"3 unchanged resources of packages aws, random", "3.0s of this 4.0s preview",
		"CAIRN_FAST_PATH=aws,random", "cairn: {fastPath: [aws, random]}"} {
		if !strings.Contains(hint, want) {
			t.Errorf("hint %q lacks %q", hint, want)
		}
	}
	if strings.Count(hint, "\n") != 1 || !strings.HasSuffix(hint, "\n") {
		t.Errorf("hint %q is not one line", hint)
	}

	// No hint when the calls took half the preview or less, when something
	// changes, or when every provider was trusted.
	for name, res := range map[string]*deploy.Result{
		"quick calls": {Duration: 4 * time.Second, Untrusted: slow.Untrusted, UntrustedTime: 2 * time.Second},
		"changes": {Changes: map[deploy.Op]int{deploy.OpUpdate: 1}, Duration: 4 * time.Second,
			Untrusted: slow.Untrusted, UntrustedTime: 3 * time.Second},
		"all trusted": {Duration: 4 * time.Second},
	} {
		if got := fastPathHint(res); got != "" {
			t.Errorf("%s: hint %q", name, got)
		}
	}
}
