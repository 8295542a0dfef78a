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

// TestProgramEnvironment runs a prebuilt Go program (a script that writes
// its environment) with Cairn's secrets in the host's environment: the
// program gets the settings the SDK reads, and none of the secrets.
func TestProgramEnvironment(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the program is a shell script")
	}
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
	dir := t.TempDir()
	write(t, filepath.Join(dir, "prog"), "#!/bin/sh\nenv > env.txt\n")
	resp, err := Go{}.Run(context.Background(), &pulumirpc.RunRequest{Pwd: dir, Project: "p", Stack: "dev",
		MonitorAddress: "127.0.0.1:1", Config: map[string]string{"p:greeting": "hi"},
		Info: info(t, dir, map[string]any{"binary": "prog"})})
	if err != nil || resp.GetError() != "" {
		t.Fatalf("Run: %v %s", err, resp.GetError())
	}
	data, err := os.ReadFile(filepath.Join(dir, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	env := string(data)
	for _, want := range []string{"CHILD_VISIBLE=yes\n", `PULUMI_CONFIG={"p:greeting":"hi"}` + "\n", "PULUMI_MONITOR=127.0.0.1:1\n"} {
		if !strings.Contains(env, want) {
			t.Errorf("the program's environment lacks %q:\n%s", want, env)
		}
	}
	for k, v := range secrets {
		if strings.Contains(env, k+"=") || strings.Contains(env, v) {
			t.Errorf("the program's environment holds %s:\n%s", k, env)
		}
	}
}
