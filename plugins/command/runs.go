package command

import (
	"context"
	"errors"
	"sync"
)

// Runs are the commands a provider runs. A provider embeds it to have the
// commands that still run killed (their whole process group) when the
// engine signals cancellation, after a second Ctrl-C, or closes the
// provider; a command started after that is killed at once. The zero
// value is ready to use.
type Runs struct {
	once    sync.Once
	stopped context.Context // ends when the commands are to be killed
	stop    context.CancelFunc
}

func (r *Runs) init() {
	r.once.Do(func() { r.stopped, r.stop = context.WithCancel(context.Background()) })
}

// Context returns ctx, ended also when the commands are to be killed;
// run a command with it.
func (r *Runs) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	r.init()
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(r.stopped, func() { cancel(errStopped) })
	return ctx, func() { stop(); cancel(nil) }
}

// errStopped is why a command killed by SignalCancellation or Close
// was killed.
var errStopped = errors.New("the provider was told to stop its operations")

// SignalCancellation kills the commands that are running.
func (r *Runs) SignalCancellation(context.Context) error {
	r.init()
	r.stop()
	return nil
}

// Close kills the commands that are still running.
func (r *Runs) Close() error {
	r.init()
	r.stop()
	return nil
}
