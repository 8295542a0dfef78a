package command

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

// marker declares a command that creates the file f-<generation> in dir and
// appends to a log each time a command runs; its delete removes the file.
func marker(dir, generation string, env map[string]any) providertest.Resource {
	environment := map[string]any{"GEN": generation}
	for k, v := range env {
		environment[k] = v
	}
	return providertest.Resource{Type: CommandType, Name: "marker", Properties: resource.MapFromGo(map[string]any{
		"dir":         dir,
		"create":      `touch "f-$GEN" && echo "create $GEN" >> log && echo "made f-$GEN"`,
		"update":      `echo "update $GEN $PULUMI_COMMAND_STDOUT" >> log && echo "updated f-$GEN"`,
		"delete":      `rm "f-$GEN" && echo "delete $GEN after $PULUMI_COMMAND_STDOUT" >> log`,
		"environment": environment,
		"triggers":    []any{generation},
	})}
}

func logOf(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func TestLifecycle(t *testing.T) {
	dir := t.TempDir()
	s := providertest.New(t, provider.Factories{Factory()})

	run, err := s.Preview(marker(dir, "1", nil))
	providertest.Expect(t, "preview", run, err, "create default", "create marker", "create proj-dev")
	if exists(filepath.Join(dir, "f-1")) || !run.Responses["marker"].Outputs["stdout"].IsUnknown() {
		t.Fatalf("the preview ran the command, or knows its stdout %v", run.Responses["marker"].Outputs["stdout"])
	}

	run, err = s.Up(marker(dir, "1", nil))
	providertest.Expect(t, "create", run, err, "create default", "create marker", "create proj-dev")
	if !exists(filepath.Join(dir, "f-1")) || !s.Find("marker").Outputs["stdout"].Equal(resource.String("made f-1")) {
		t.Fatalf("create did not run: %v", resource.Object(s.Find("marker").Outputs))
	}

	run, err = s.Up(marker(dir, "1", nil))
	providertest.Expect(t, "no-change update", run, err, "same default", "same marker", "same proj-dev")

	run, err = s.Up(marker(dir, "1", map[string]any{"EXTRA": "x"}))
	providertest.Expect(t, "update", run, err, "same default", "same proj-dev", "update marker")

	run, err = s.Up(marker(dir, "2", nil))
	providertest.Expect(t, "replace", run, err, "replace marker", "same default", "same proj-dev")
	if exists(filepath.Join(dir, "f-1")) || !exists(filepath.Join(dir, "f-2")) {
		t.Fatalf("the replacement did not create f-2 and delete f-1")
	}

	run, err = s.Destroy()
	providertest.Expect(t, "destroy", run, err, "delete default", "delete marker", "delete proj-dev")
	if exists(filepath.Join(dir, "f-2")) {
		t.Errorf("destroy did not run the delete command")
	}
	want := []string{"create 1", "update 1 made f-1", "create 2", "delete 1 after updated f-1", "delete 2 after made f-2"}
	if got := logOf(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("commands run\ngot:  %q\nwant: %q", got, want)
	}
}

// A command that fails fails the update with its exit code and the end of
// its stderr, and is not recorded.
func TestLifecycleFailure(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory()})
	_, err := s.Up(providertest.Resource{Type: CommandType, Name: "broken", Properties: resource.MapFromGo(map[string]any{
		"create": "echo 'compiling'; echo 'error: no such table: users' >&2; exit 42"})})
	var cerr *Error
	if !errors.As(err, &cerr) {
		t.Fatalf("err = %v, want a *command.Error", err)
	}
	if cerr.ExitCode != 42 || cerr.Tail != "error: no such table: users" {
		t.Errorf("got exit code %d, tail %q", cerr.ExitCode, cerr.Tail)
	}
	if !strings.Contains(err.Error(), "exit code 42") || !strings.Contains(err.Error(), "no such table") {
		t.Errorf("the error %q does not say what failed", err)
	}
	if s.Find("broken") != nil {
		t.Errorf("the failed command is in the state")
	}
}

// A custom timeout bounds the command.
func TestLifecycleTimeout(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory()})
	_, err := s.Up(providertest.Resource{Type: CommandType, Name: "slow",
		Properties: resource.MapFromGo(map[string]any{"create": "sleep 30"}),
		Timeouts:   &resource.CustomTimeouts{Create: 0.05}})
	if err == nil || !strings.Contains(err.Error(), "did not finish within 50ms and was killed") {
		t.Errorf("err = %v", err)
	}
}
