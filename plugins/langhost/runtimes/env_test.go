package runtimes

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// secretEnv sets Cairn's secrets in the environment, and a variable that
// is none, and returns the secrets.
func secretEnv(t *testing.T) map[string]string {
	secrets := map[string]string{
		"CAIRN_CONFIG_PASSPHRASE":  "cairn-pass-hunter",
		"PULUMI_CONFIG_PASSPHRASE": "pulumi-pass-hunter",
		"TF_TOKEN_example_com":     "tf-token-hunter",
		"CAIRN_BACKEND_URL":        "postgres://u:pg-pw-hunter@db.invalid/cairn",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("CHILD_VISIBLE", "yes")
	return secrets
}

// checkEnv fails the test unless the environment a child wrote to path
// has the variables of want and none of the secrets.
func checkEnv(t *testing.T, path string, secrets map[string]string, want ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := string(data)
	for _, w := range append(want, "CHILD_VISIBLE=yes\n") {
		if !strings.Contains(env, w) {
			t.Errorf("the environment of %s lacks %q:\n%s", filepath.Base(path), w, env)
		}
	}
	for k, v := range secrets {
		if strings.Contains(env, k+"=") || strings.Contains(env, v) {
			t.Errorf("the environment of %s holds %s:\n%s", filepath.Base(path), k, env)
		}
	}
}

// TestProgramEnvironment runs a prebuilt Go program (a script that writes
// its environment) with Cairn's secrets in the host's environment: the
// program gets the settings the SDK reads, and none of the secrets.
func TestProgramEnvironment(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the program is a shell script")
	}
	secrets := secretEnv(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "prog"), "#!/bin/sh\nenv > env.txt\n")
	resp, err := Go{}.Run(context.Background(), &pulumirpc.RunRequest{Pwd: dir, Project: "p", Stack: "dev",
		MonitorAddress: "127.0.0.1:1", Config: map[string]string{"p:greeting": "hi"},
		Info: info(t, dir, map[string]any{"binary": "prog"})})
	if err != nil || resp.GetError() != "" {
		t.Fatalf("Run: %v %s", err, resp.GetError())
	}
	checkEnv(t, filepath.Join(dir, "env.txt"), secrets, `PULUMI_CONFIG={"p:greeting":"hi"}`+"\n", "PULUMI_MONITOR=127.0.0.1:1\n")
}

// TestInstallEnvironment installs a Node.js program's dependencies with a
// fake npm that writes its environment: the package manager, which runs
// the packages' install scripts, gets none of Cairn's secrets.
func TestInstallEnvironment(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	secrets := secretEnv(t)
	bin, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(bin, "npm"), "#!/bin/sh\nenv > npm.env\nmkdir -p node_modules/@pulumi/pulumi && echo '{}' > node_modules/@pulumi/pulumi/package.json\n")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	write(t, filepath.Join(dir, "package.json"), `{"name": "prog"}`)
	if err := (NodeJS{}).Install(context.Background(), info(t, dir, nil), nil); err != nil {
		t.Fatal(err)
	}
	checkEnv(t, filepath.Join(dir, "npm.env"), secrets)
}
