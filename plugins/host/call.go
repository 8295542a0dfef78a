package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// ProcessError is a failure of a plugin process rather than of the
// operation it was asked to do: the plugin crashed, hung or cannot be
// reached, so whether the operation happened is unknown.
type ProcessError struct {
	Plugin string
	Op     string
	Err    error
}

func (e *ProcessError) Error() string {
	return fmt.Sprintf("provider plugin %s failed during %s: %v", e.Plugin, e.Op, e.Err)
}

func (e *ProcessError) Unwrap() error { return e.Err }

// Is makes a process error provider.ErrOutcomeUnknown.
func (e *ProcessError) Is(target error) bool { return target == provider.ErrOutcomeUnknown }

// call runs one RPC with a deadline, failing it as soon as the plugin exits,
// and explains its error.
func (p *Plugin) call(ctx context.Context, op string, timeout time.Duration, do func(context.Context) error) error {
	if op != "Handshake" && op != "GetPluginInfo" && op != "GetSchema" {
		p.used.Store(true)
	}
	limit := p.opts.deadline(timeout)
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cctx, stop := p.proc.Context(cctx)
	defer stop()
	err := do(cctx)
	if err == nil {
		return nil
	}
	return p.explain(ctx, cctx, op, limit, err)
}

// exitWait is how long a failed call waits for what its error suggests
// (the plugin's exit, or the call's own deadline) to be seen.
const exitWait = 2 * time.Second

func (p *Plugin) explain(ctx, cctx context.Context, op string, limit time.Duration, err error) error {
	name := p.proc.Name()
	switch status.Code(err) {
	case codes.Unavailable, codes.Canceled:
		select {
		case <-p.proc.Done():
		case <-time.After(exitWait):
		}
	case codes.DeadlineExceeded:
		// The plugin's side of the deadline may fire first.
		select {
		case <-cctx.Done():
		case <-time.After(exitWait):
		}
	}
	if exit := p.proc.ExitError(); exit != nil {
		return &ProcessError{Plugin: name, Op: op, Err: fmt.Errorf("the plugin exited unexpectedly: %w", exit)}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	if errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return &ProcessError{Plugin: name, Op: op, Err: fmt.Errorf("no answer within %s; the plugin may be hung "+
			"(give the resource a longer customTimeouts option if the operation is just slow)", limit)}
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	switch st.Code() {
	case codes.Unimplemented:
		return fmt.Errorf("%s %s: %w", name, op, provider.ErrNotImplemented)
	case codes.Unavailable:
		return &ProcessError{Plugin: name, Op: op, Err: errors.New(st.Message())}
	}
	if ie, derr := rpc.InitErrorFromStatus(st, rpc.Options{KeepSecrets: true, KeepResources: true}); derr != nil {
		return derr
	} else if ie != nil {
		return ie
	}
	return &statusError{code: st.Code(), msg: st.Message()}
}

// statusError is a plugin's error answer: its message, and its code for
// the fallbacks that depend on it.
type statusError struct {
	code codes.Code
	msg  string
}

func (e *statusError) Error() string { return e.msg }

// rpcCall calls method with req under call's deadline and error handling.
func rpcCall[Req, Resp any](ctx context.Context, p *Plugin, op string, timeout time.Duration,
	method func(context.Context, Req, ...grpc.CallOption) (Resp, error), req Req, opts ...grpc.CallOption) (Resp, error) {
	var resp Resp
	err := p.call(ctx, op, timeout, func(ctx context.Context) (err error) {
		resp, err = method(ctx, req, opts...)
		return err
	})
	return resp, err
}
