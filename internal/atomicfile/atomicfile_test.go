package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite replaces a file whole, with the permissions asked for, and
// leaves no temporary file behind, also when it gives up before the
// rename.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if got := Perm(path, 0o600); got != 0o640 {
		t.Errorf("Perm of an existing file = %o, want 640", got)
	}
	if got := Perm(filepath.Join(dir, "none"), 0o600); got != 0o600 {
		t.Errorf("Perm of no file = %o, want 600", got)
	}
	stop := errors.New("stop")
	if err := WriteFrom(path, Bytes("half"), 0o600, func(tmp string) error {
		if data, _ := os.ReadFile(tmp); string(data) != "half" {
			t.Errorf("the temporary file holds %q before the rename", data)
		}
		return stop
	}); !errors.Is(err, stop) {
		t.Errorf("WriteFrom = %v, want the error of before", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("after a failed write the file holds %q", data)
	}
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if data, _ := os.ReadFile(path); err != nil || string(data) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("the file holds %q with mode %v (%v), want \"new\" with 600", data, info.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only the one written", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "x"), nil, 0o600); err == nil {
		t.Error("Write into a missing folder succeeded")
	}
}
