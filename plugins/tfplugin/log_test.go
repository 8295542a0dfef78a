package tfplugin

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// TestLogLevels tells providers to log at the level Cairn's log shows
// what they log (debug), unless the user set a TF_LOG variable.
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
	for l, want := range map[slog.Level]string{slog.LevelWarn: "off", slog.LevelDebug: "debug", slog.LevelDebug - 4: "trace", slog.LevelError + 4: "off"} {
		if got := logLevels(logger(l)); !slices.Equal(got, []string{"TF_LOG_SDK=" + want, "TF_LOG_PROVIDER=" + want}) {
			t.Errorf("at %v: %v", l, got)
		}
	}
	t.Setenv("TF_LOG_PROVIDER_NULL", "trace")
	if got := logLevels(logger(slog.LevelWarn)); got != nil {
		t.Errorf("with TF_LOG_PROVIDER_NULL set: %v", got)
	}
}

// TestProviderOutputLevel logs what a provider writes at debug level
// whatever its own level, keeping that as @level: a provider's error
// reaches the user as its call's diagnostics, not as a log line.
func TestProviderOutputLevel(t *testing.T) {
	for l, want := range map[slog.Level]string{slog.LevelWarn: "", slog.LevelDebug: `level=DEBUG msg="refusing the item" plugin=terraform-provider-x @caller=main.go:1 @level=error` + "\n"} {
		var out bytes.Buffer
		h := &hclogger{log: slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: l, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))}
		provider := h.Named("terraform-provider-x")
		provider.Error("refusing the item", "@caller", "main.go:1")
		if got := out.String(); got != want {
			t.Errorf("at %v the provider's error is logged as %q, want %q", l, got, want)
		}
		if got := provider.GetLevel() == hclog.Off; got != (want == "") {
			t.Errorf("at %v the provider's logger is off: %v", l, got)
		}
	}
}
