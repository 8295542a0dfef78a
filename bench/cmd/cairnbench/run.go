package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// sample is what one whole-process run of cairn cost.
type sample struct {
	wall    time.Duration
	maxRSS  int64 // bytes, the largest of the process and its children
	written int64 // bytes the process tree had written to storage (rusage output blocks)
}

// runner runs cairn (or OpenTofu, or Terraform) in one stack's folder
// with one CAIRN_HOME.
type runner struct {
	bin  string
	dir  string
	home string
	env  []string // added to the environment
}

// run runs the program with args and measures it; it fails when the
// program does.
func (r runner) run(args ...string) (sample, error) {
	cmd := exec.Command(r.bin, args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "CAIRN_HOME="+r.home, "CAIRN_CONFIG_PASSPHRASE=bench", "CAIRN_BACKEND_URL=", "PULUMI_BACKEND_URL=")
	cmd.Env = append(cmd.Env, r.env...)
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s %s: %w\n%s", filepath.Base(r.bin), strings.Join(args, " "), err, out.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return sample{wall: wall, maxRSS: ru.Maxrss * 1024, written: ru.Oublock * 512}, nil
}

// tail keeps the last few KiB written to it, for error messages: a large
// stack's progress output is not worth keeping.
type tail struct{ buf []byte }

const tailSize = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	if i := bytes.IndexByte(t.buf, '\n'); len(t.buf) >= tailSize && i >= 0 {
		return "…" + string(t.buf[i:])
	}
	return string(t.buf)
}
