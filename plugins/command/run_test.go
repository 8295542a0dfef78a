package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

func createReq(in map[string]any, preview bool) provider.CreateRequest {
	return provider.CreateRequest{Type: CommandType, Name: "cmd", Inputs: resource.MapFromGo(in), Preview: preview}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		in         map[string]any
		wantStdout string
		wantStderr string
	}{
		{"no command", map[string]any{}, "", ""},
		{"stdout without final newline", map[string]any{"create": "echo hello; echo there"}, "hello\nthere", ""},
		{"stderr", map[string]any{"create": "echo oops >&2"}, "", "oops"},
		{"environment", map[string]any{"create": "echo $GREETING", "environment": map[string]any{"GREETING": "hi"}}, "hi", ""},
		{"dir", map[string]any{"create": "pwd", "dir": dir}, dir, ""},
		{"stdin", map[string]any{"create": "cat", "stdin": "from stdin"}, "from stdin", ""},
		{"interpreter", map[string]any{"create": "print('py')", "interpreter": []any{"/bin/sh", "-c", "echo via-$0", "x"}}, "via-x", ""},
		{"secret command", map[string]any{"create": resource.MakeSecret(resource.String("echo s"))}, "s", ""},
		{"no previous output", map[string]any{"create": "echo \"[$PULUMI_COMMAND_STDOUT]\""}, "[]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := New().Create(context.Background(), createReq(tt.in, false))
			if err != nil {
				t.Fatal(err)
			}
			// A secret command's output is secret (TestSecretInSecretOut).
			if got := resp.Outputs["stdout"].Unsecret(); !got.Equal(resource.String(tt.wantStdout)) {
				t.Errorf("stdout = %v, want %q", got, tt.wantStdout)
			}
			if got := resp.Outputs["stderr"].Unsecret(); !got.Equal(resource.String(tt.wantStderr)) {
				t.Errorf("stderr = %v, want %q", got, tt.wantStderr)
			}
			if !strings.HasPrefix(string(resp.ID), "cmd") || len(resp.ID) != len("cmd")+8 {
				t.Errorf("ID %q, want cmd and 8 hex digits", resp.ID)
			}
			for k, v := range resource.MapFromGo(tt.in) {
				if !resp.Outputs[k].Equal(v) {
					t.Errorf("input %s is output as %v", k, resp.Outputs[k])
				}
			}
		})
	}
}

// A preview runs nothing and cannot know what the command prints.
func TestCreatePreview(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	in := map[string]any{"create": "touch " + marker, "assetPaths": []any{"*"}}
	resp, err := New().Create(context.Background(), createReq(in, true))
	if err != nil {
		t.Fatal(err)
	}
	if exists(marker) {
		t.Errorf("a preview ran the create command")
	}
	for _, k := range []string{"stdout", "stderr", "assets"} {
		if !resp.Outputs[k].IsUnknown() {
			t.Errorf("%s = %v, want unknown", k, resp.Outputs[k])
		}
	}
	if _, ok := resp.Outputs["archive"]; ok {
		t.Errorf("archive is an output though archivePaths is not set")
	}
}

func TestCreateFailure(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("echo line%02d >&2", i))
	}
	tests := []struct {
		name     string
		command  string
		wantCode int
		wantTail string
		notIn    string
	}{
		{"stderr", "echo partial; echo 'it broke' >&2; exit 3", 3, "it broke", "partial"},
		{"stdout when stderr is empty", "echo only-stdout; exit 1", 1, "only-stdout", ""},
		{"long stderr", strings.Join(lines, "; ") + "; exit 2", 2, "…\nline10\n", "line09"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New().Create(context.Background(), createReq(map[string]any{"create": tt.command}, false))
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("err = %v, want a *command.Error", err)
			}
			if cerr.Op != "create" || cerr.ExitCode != tt.wantCode || !strings.Contains(cerr.Tail, tt.wantTail) ||
				tt.notIn != "" && strings.Contains(cerr.Tail, tt.notIn) {
				t.Errorf("got op %q, code %d, tail %q", cerr.Op, cerr.ExitCode, cerr.Tail)
			}
			if !strings.Contains(err.Error(), "exit code") {
				t.Errorf("the message %q does not give the exit code", err)
			}
		})
	}
	_, err := New().Create(context.Background(), createReq(map[string]any{"create": "true", "dir": "/does/not/exist"}, false))
	if err == nil || !strings.Contains(err.Error(), "cannot run the create command") {
		t.Errorf("missing dir: err = %v", err)
	}
}

// A command that outlives its timeout is killed, with the processes it
// started.
func TestCreateTimeout(t *testing.T) {
	req := createReq(map[string]any{"create": "sleep 30 & sleep 30; wait"}, false)
	req.Timeout = 50 * time.Millisecond
	_, err := New().Create(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 50ms and was killed") {
		t.Errorf("err = %v", err)
	}
}

func TestUpdate(t *testing.T) {
	old := resource.MapFromGo(map[string]any{"create": "echo one", "stdout": "one", "stderr": "was"})
	tests := []struct {
		name    string
		news    map[string]any
		preview bool
		want    map[string]any
	}{
		{"update command", map[string]any{"create": "echo c", "update": "echo \"u after $PULUMI_COMMAND_STDOUT\""}, false,
			map[string]any{"stdout": "u after one", "stderr": ""}},
		{"create when no update", map[string]any{"create": "echo \"c after $PULUMI_COMMAND_STDERR\""}, false,
			map[string]any{"stdout": "c after was", "stderr": ""}},
		{"previous output not wanted", map[string]any{"create": "echo \"[$PULUMI_COMMAND_STDOUT]\"", "addPreviousOutputInEnv": false}, false,
			map[string]any{"stdout": "[]"}},
		{"no command", map[string]any{"delete": "true"}, false, map[string]any{"stdout": "one", "stderr": "was"}},
		{"preview", map[string]any{"create": "echo c"}, true, map[string]any{"stdout": resource.Unknown(), "stderr": resource.Unknown()}},
		{"preview without command", map[string]any{}, true, map[string]any{"stdout": "one", "stderr": "was"}},
		{"preview of an unknown command", map[string]any{"update": resource.Unknown()}, true,
			map[string]any{"stdout": resource.Unknown(), "stderr": resource.Unknown()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := New().Update(context.Background(), provider.UpdateRequest{Type: CommandType, OldOutputs: old,
				News: resource.MapFromGo(tt.news), Preview: tt.preview})
			if err != nil {
				t.Fatal(err)
			}
			for k, w := range tt.want {
				if got := resp.Outputs[k]; !got.Equal(resource.FromGo(w)) {
					t.Errorf("%s = %v, want %v", k, got, w)
				}
			}
			if _, ok := resp.Outputs["update"]; ok != (tt.news["update"] != nil) {
				t.Errorf("the outputs are not the new inputs: %v", resource.Object(resp.Outputs))
			}
		})
	}
}

func TestDelete(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "deleted")
	state := resource.MapFromGo(map[string]any{"delete": "echo \"$PULUMI_COMMAND_STDOUT\" > " + out, "stdout": "created-this", "stderr": ""})
	if err := New().Delete(context.Background(), provider.DeleteRequest{Type: CommandType, Outputs: state}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "created-this\n" {
		t.Errorf("the delete command wrote %q (%v)", b, err)
	}
	if err := New().Delete(context.Background(), provider.DeleteRequest{Type: CommandType, Outputs: resource.Map{}}); err != nil {
		t.Errorf("a command without delete: %v", err)
	}
	err := New().Delete(context.Background(), provider.DeleteRequest{Type: CommandType,
		Outputs: resource.MapFromGo(map[string]any{"delete": "exit 4"})})
	var cerr *Error
	if !errors.As(err, &cerr) || cerr.Op != "delete" || cerr.ExitCode != 4 {
		t.Errorf("err = %v", err)
	}
}

func TestRead(t *testing.T) {
	outputs := resource.MapFromGo(map[string]any{"create": "x", "stdout": "y", "stderr": ""})
	resp, err := New().Read(context.Background(), provider.ReadRequest{Type: CommandType, ID: "c1", Inputs: resource.Map{}, Outputs: outputs})
	if err != nil || resp.ID != "c1" || !resp.Outputs.Equal(outputs) {
		t.Errorf("refresh: %v %v", resp, err)
	}
	if _, err := New().Read(context.Background(), provider.ReadRequest{Type: CommandType, ID: "c1"}); err == nil ||
		!strings.Contains(err.Error(), "cannot be imported") {
		t.Errorf("import: err = %v", err)
	}
}

func TestAssets(t *testing.T) {
	dir := t.TempDir()
	in := map[string]any{
		"create":       "mkdir -p sub/deep && echo a > a.txt && echo b > b.log && echo c > sub/c.txt && echo d > sub/deep/d.txt && echo s > sub/skip.txt",
		"dir":          dir,
		"assetPaths":   []any{"*.txt", "sub/**", "!sub/skip.txt"},
		"archivePaths": []any{"**.log"},
	}
	resp, err := New().Create(context.Background(), createReq(in, false))
	if err != nil {
		t.Fatal(err)
	}
	assets := resp.Outputs["assets"].ObjectValue()
	if got, want := strings.Join(assets.SortedKeys(), " "), "a.txt sub/c.txt sub/deep/d.txt"; got != want {
		t.Errorf("assets %q, want %q", got, want)
	}
	if a := assets["a.txt"].AssetValue(); a.Path != filepath.Join(dir, "a.txt") || a.Hash == "" {
		t.Errorf("asset a.txt = %+v", a)
	}
	archive := resp.Outputs["archive"].ArchiveValue()
	if _, ok := archive.Assets["b.log"]; !ok || len(archive.Assets) != 1 || archive.Hash == "" {
		t.Errorf("archive %+v", archive)
	}
}

func TestInvokeRun(t *testing.T) {
	p := New()
	resp, err := p.Invoke(context.Background(), provider.InvokeRequest{Token: RunFunction, Preview: true,
		Args: resource.MapFromGo(map[string]any{"command": "echo ran"})})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Return["stdout"].Equal(resource.String("ran")) || !resp.Return["command"].Equal(resource.String("echo ran")) {
		t.Errorf("return %v", resource.Object(resp.Return))
	}
	resp, err = p.Invoke(context.Background(), provider.InvokeRequest{Token: RunFunction, Args: resource.Map{}})
	if err != nil || len(resp.Failures) != 1 || resp.Failures[0].Property != "command" {
		t.Errorf("missing command: %v %v", resp.Failures, err)
	}
	_, err = p.Invoke(context.Background(), provider.InvokeRequest{Token: RunFunction,
		Args: resource.MapFromGo(map[string]any{"command": "exit 7"})})
	var cerr *Error
	if !errors.As(err, &cerr) || cerr.Op != "run" || cerr.ExitCode != 7 {
		t.Errorf("err = %v", err)
	}
	if _, err := p.Invoke(context.Background(), provider.InvokeRequest{Token: "command:local:runn"}); err == nil ||
		!strings.Contains(err.Error(), `did you mean "command:local:run"?`) {
		t.Errorf("unknown function: err = %v", err)
	}
}

// TestRun runs a command as a create command runs, in its dir with its
// environment, copying both streams as they come; a failure is an *Error.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := resource.MapFromGo(map[string]any{"dir": dir, "environment": map[string]any{"WHO": "run"}})
	var echo strings.Builder
	if err := Run(context.Background(), "local-exec", "echo out $WHO; echo err >&2; pwd", in, &echo); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"out run\n", "err\n", dir + "\n"} {
		if !strings.Contains(echo.String(), want) {
			t.Errorf("echoed %q, want %q in it", echo.String(), want)
		}
	}
	err := Run(context.Background(), "local-exec", "echo failing; exit 7", in, &strings.Builder{})
	var failed *Error
	if !errors.As(err, &failed) || failed.ExitCode != 7 || failed.Op != "local-exec" || failed.Tail != "failing" {
		t.Errorf("err = %#v, want exit code 7 with its output", err)
	}
}
