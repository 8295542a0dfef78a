package tfplugin

import (
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestLogLevels tells providers to log at the level Cairn's log shows,
// unless the user set a TF_LOG variable.
func TestLogLevels(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_LOG") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	logger := func(l slog.Level) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: l}))
	}
	for l, want := range map[slog.Level]string{slog.LevelWarn: "warn", slog.LevelDebug: "debug", slog.LevelDebug - 4: "trace", slog.LevelError + 4: "off"} {
		if got := logLevels(logger(l)); !slices.Equal(got, []string{"TF_LOG_SDK=" + want, "TF_LOG_PROVIDER=" + want}) {
			t.Errorf("at %v: %v", l, got)
		}
	}
	t.Setenv("TF_LOG_PROVIDER_NULL", "trace")
	if got := logLevels(logger(slog.LevelWarn)); got != nil {
		t.Errorf("with TF_LOG_PROVIDER_NULL set: %v", got)
	}
}
