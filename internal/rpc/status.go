package rpc

import (
	"context"
	"errors"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// ErrorToStatus converts a provider's error into a gRPC status error: a
// partial failure carries ErrorResourceInitFailed details (its outputs
// marshalled with o), ErrNotImplemented becomes UNIMPLEMENTED, context
// errors keep their codes, and everything else is UNKNOWN with the error's
// text.
func ErrorToStatus(err error, o Options) error {
	var ie *provider.InitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ie):
		return initErrorStatus(ie, o)
	case errors.Is(err, provider.ErrNotImplemented):
		return status.Error(codes.Unimplemented, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	}
	return status.Error(codes.Unknown, err.Error())
}

func initErrorStatus(ie *provider.InitError, o Options) error {
	props, err := MarshalMap(ie.Outputs, o)
	if err != nil {
		return status.Errorf(codes.Internal, "marshalling the outputs of a partially initialised resource: %v", err)
	}
	inputs, err := MarshalMap(ie.Inputs, o)
	if err != nil {
		return status.Errorf(codes.Internal, "marshalling the inputs of a partially initialised resource: %v", err)
	}
	st, err := status.New(codes.Unknown, ie.Error()).WithDetails(&pulumirpc.ErrorResourceInitFailed{
		Id: string(ie.ID), Properties: props, Inputs: inputs, Reasons: ie.Reasons,
	})
	if err != nil {
		return status.Errorf(codes.Internal, "attaching the partial failure to the error: %v", err)
	}
	return st.Err()
}

// InitErrorFromStatus returns the partial failure a status carries, its
// properties read with o, or nil when it carries none.
func InitErrorFromStatus(st *status.Status, o Options) (*provider.InitError, error) {
	for _, d := range st.Details() {
		f, ok := d.(*pulumirpc.ErrorResourceInitFailed)
		if !ok {
			continue
		}
		outputs, err := UnmarshalMap(f.GetProperties(), o)
		if err != nil {
			return nil, fmt.Errorf("reading the outputs of a partially initialised resource: %w", err)
		}
		inputs, err := UnmarshalMap(f.GetInputs(), o)
		if err != nil {
			return nil, fmt.Errorf("reading the inputs of a partially initialised resource: %w", err)
		}
		reasons := f.GetReasons()
		if len(reasons) == 0 {
			reasons = []string{st.Message()}
		}
		return &provider.InitError{ID: resource.ID(f.GetId()), Outputs: outputs, Inputs: inputs, Reasons: reasons}, nil
	}
	return nil, nil
}
