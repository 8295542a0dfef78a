package launch

import (
	"strings"
	"testing"
)

func TestTailKeepsThePanicLine(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"nothing", nil, ""},
		{"short", []string{"a", "b"}, "; its last output on stderr was:\n\ta\n\tb"},
		{"long", []string{"a", "b", "c", "d"}, "; its last output on stderr was:\n\tc\n\td"},
		{"panic kept", []string{"panic: boom", "", "goroutine 1", "main.go:3"},
			"; its last output on stderr was:\n\tpanic: boom\n\t...\n\tgoroutine 1\n\tmain.go:3"},
		{"panic in the tail", []string{"x", "fatal error: out of memory", "main.go:3"},
			"; its last output on stderr was:\n\tfatal error: out of memory\n\tmain.go:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := newTail(2)
			for _, l := range tt.lines {
				tl.add(l)
			}
			if got := tl.describe(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPluginsDoNotWriteTheEnginesProfiles(t *testing.T) {
	t.Setenv("CAIRN_CPUPROFILE", "/tmp/cpu.prof")
	t.Setenv("CAIRN_MEMPROFILE", "/tmp/mem.prof")
	t.Setenv("CAIRN_LAUNCH_TEST", "kept")
	env := strings.Join(pluginEnviron(), "\n")
	if strings.Contains(env, "PROFILE=") {
		t.Errorf("a plugin inherits a profile variable:\n%s", env)
	}
	if !strings.Contains(env, "CAIRN_LAUNCH_TEST=kept") {
		t.Error("a plugin does not inherit the other variables")
	}
}
