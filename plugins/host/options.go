package host

import (
	"log/slog"
	"time"
)

// Options configure how plugins are launched and called.
type Options struct {
	// EngineAddress is the Engine service plugins log to; it is their last
	// argument. A Resolver fills it in with the service it runs.
	EngineAddress string
	// RootDirectory and ProgramDirectory are the project's folders, told to
	// plugins in the handshake.
	RootDirectory    string
	ProgramDirectory string
	// Env is added to the plugins' environment.
	Env []string
	// Log receives what plugins print; nil means slog.Default().
	Log *slog.Logger
	// StartTimeout bounds the wait for a plugin's port; zero means a minute.
	StartTimeout time.Duration
	// CallTimeout bounds calls whose request carries no timeout of its own;
	// zero means two hours.
	CallTimeout time.Duration
	// TimeoutGrace is added to a request's own timeout (a resource's
	// customTimeouts) before Cairn gives up on the plugin; zero means a
	// minute.
	TimeoutGrace time.Duration
}

func (o Options) callTimeout() time.Duration {
	if o.CallTimeout > 0 {
		return o.CallTimeout
	}
	return 2 * time.Hour
}

func (o Options) timeoutGrace() time.Duration {
	if o.TimeoutGrace > 0 {
		return o.TimeoutGrace
	}
	return time.Minute
}

// deadline is how long a call may take: the request's timeout plus the
// grace period, or the default.
func (o Options) deadline(timeout time.Duration) time.Duration {
	if timeout > 0 {
		return timeout + o.timeoutGrace()
	}
	return o.callTimeout()
}
