package tfplugin

import (
	"context"
	"io"
	"log"
	"log/slog"
	"os"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// logLevels returns the environment that sets the level of a provider's
// logs (TF_LOG_SDK for its SDK's, TF_LOG_PROVIDER for its own) to the
// lowest one log shows (see outputLevel): terraform-plugin-go otherwise
// logs at trace level on standard error, and writing and parsing lines
// that are then dropped costs more than a simple provider's work. TF_LOG*
// variables the user sets are left to decide.
func logLevels(log *slog.Logger) []string {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") {
			return nil
		}
	}
	for _, l := range []hclog.Level{hclog.Trace, hclog.Debug, hclog.Info, hclog.Warn, hclog.Error} {
		if log.Enabled(context.Background(), outputLevel(l)) {
			return []string{"TF_LOG_SDK=" + l.String(), "TF_LOG_PROVIDER=" + l.String()}
		}
	}
	return []string{"TF_LOG_SDK=off", "TF_LOG_PROVIDER=off"}
}

// hclogger is the hclog.Logger go-plugin logs to (the provider's standard
// error, levelled as the provider wrote it, and go-plugin's own messages),
// writing into Cairn's slog logger.
type hclogger struct {
	log  *slog.Logger
	name string
	args []any
	// output is set in the logger of the provider's standard error (see
	// Named).
	output bool
}

var _ hclog.Logger = (*hclogger)(nil)

var slogLevels = map[hclog.Level]slog.Level{
	hclog.Trace: slog.LevelDebug - 4, hclog.Debug: slog.LevelDebug, hclog.Info: slog.LevelInfo,
	hclog.Warn: slog.LevelWarn, hclog.Error: slog.LevelError,
}

func level(l hclog.Level) slog.Level {
	if s, ok := slogLevels[l]; ok {
		return s
	}
	return slog.LevelInfo
}

// outputLevel is the level of a line a provider logs at l: debug at most,
// whatever l, as what the provider logs is for who asks for it (with
// --verbose, or CAIRN_LOG=debug), not for every user: its errors reach
// the user as the diagnostics of the call that failed.
func outputLevel(l hclog.Level) slog.Level {
	return min(level(l), slog.LevelDebug)
}

// levelOf is the slog level h logs a message of level l at.
func (h *hclogger) levelOf(l hclog.Level) slog.Level {
	if h.output {
		return outputLevel(l)
	}
	return level(l)
}

func (h *hclogger) Log(l hclog.Level, msg string, args ...any) {
	args = append(append([]any(nil), h.args...), args...)
	if h.output && l > hclog.Debug {
		args = append(args, "@level", l.String()) // as the provider wrote it
	}
	h.log.Log(context.Background(), h.levelOf(l), msg, args...)
}

func (h *hclogger) Trace(msg string, args ...any) { h.Log(hclog.Trace, msg, args...) }
func (h *hclogger) Debug(msg string, args ...any) { h.Log(hclog.Debug, msg, args...) }
func (h *hclogger) Info(msg string, args ...any)  { h.Log(hclog.Info, msg, args...) }
func (h *hclogger) Warn(msg string, args ...any)  { h.Log(hclog.Warn, msg, args...) }
func (h *hclogger) Error(msg string, args ...any) { h.Log(hclog.Error, msg, args...) }

func (h *hclogger) enabled(l hclog.Level) bool {
	return h.log.Enabled(context.Background(), h.levelOf(l))
}

func (h *hclogger) IsTrace() bool { return h.enabled(hclog.Trace) }
func (h *hclogger) IsDebug() bool { return h.enabled(hclog.Debug) }
func (h *hclogger) IsInfo() bool  { return h.enabled(hclog.Info) }
func (h *hclogger) IsWarn() bool  { return h.enabled(hclog.Warn) }
func (h *hclogger) IsError() bool { return h.enabled(hclog.Error) }

func (h *hclogger) ImpliedArgs() []any { return h.args }

func (h *hclogger) With(args ...any) hclog.Logger {
	return &hclogger{log: h.log, name: h.name, args: append(append([]any(nil), h.args...), args...), output: h.output}
}

func (h *hclogger) Name() string { return h.name }

// Named names the logger after the provider binary: go-plugin logs the
// provider's standard error to it.
func (h *hclogger) Named(name string) hclog.Logger { return h.ResetNamed(name) }

func (h *hclogger) ResetNamed(name string) hclog.Logger {
	return &hclogger{log: h.log.With("plugin", name), name: name, args: h.args, output: true}
}

// SetLevel does nothing: the slog handler decides.
func (h *hclogger) SetLevel(hclog.Level) {}

func (h *hclogger) GetLevel() hclog.Level {
	for _, l := range []hclog.Level{hclog.Trace, hclog.Debug, hclog.Info, hclog.Warn, hclog.Error} {
		if h.enabled(l) {
			return l
		}
	}
	return hclog.Off
}

func (h *hclogger) StandardLogger(opts *hclog.StandardLoggerOptions) *log.Logger {
	return log.New(h.StandardWriter(opts), "", 0)
}

func (h *hclogger) StandardWriter(*hclog.StandardLoggerOptions) io.Writer {
	return slog.NewLogLogger(h.log.Handler(), slog.LevelInfo).Writer()
}
