package backend

import (
	"fmt"

	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/state"
)

// Options are what every backend is opened with.
type Options struct {
	// Warn receives warnings: a stale lock broken, an interrupted operation
	// recovered, pending operations dropped by an import. Nil discards them.
	Warn func(msg string)
	// EngineVersion is written in the manifest of every state; empty means
	// state.EngineVersion().
	EngineVersion string
	// Gzip writes states compressed with gzip, as Pulumi's DIY backend does
	// with PULUMI_DIY_BACKEND_GZIP set: <stack>.json.gz.
	Gzip bool
}

// Warnf passes a warning to Warn, if it is set.
func (o Options) Warnf(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// Encoder returns the encoder that writes states with the engine version.
func (o Options) Encoder(sm secrets.Manager, showSecrets bool) *state.Encoder {
	return state.NewEncoder(state.EncodeOptions{Secrets: sm, ShowSecrets: showSecrets, EngineVersion: o.EngineVersion})
}
