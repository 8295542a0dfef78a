package enginesvc

import (
	"context"
	"reflect"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/engine/deploy"
)

func TestLogAndRootResource(t *testing.T) {
	var mu sync.Mutex
	var got []deploy.DiagEvent
	s := New(func(e deploy.DiagEvent) {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
	})
	ctx := context.Background()
	for _, r := range []*pulumirpc.LogRequest{
		{Severity: pulumirpc.LogSeverity_WARNING, Message: "careful", Urn: "urn:pulumi:s::p::t:m:T::n"},
		{Severity: pulumirpc.LogSeverity_DEBUG, Message: "details"},
	} {
		if _, err := s.Log(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	want := []deploy.DiagEvent{
		{URN: "urn:pulumi:s::p::t:m:T::n", Severity: deploy.SeverityWarning, Message: "careful"},
		{Severity: deploy.SeverityDebug, Message: "details"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics = %+v, want %+v", got, want)
	}

	if _, err := s.SetRootResource(ctx, &pulumirpc.SetRootResourceRequest{Urn: "urn:root"}); err != nil {
		t.Fatal(err)
	}
	r, err := s.GetRootResource(ctx, &pulumirpc.GetRootResourceRequest{})
	if err != nil || r.GetUrn() != "urn:root" {
		t.Errorf("GetRootResource = %v, %v; want urn:root", r, err)
	}
	if _, err := New(nil).Log(ctx, &pulumirpc.LogRequest{Message: "dropped"}); err != nil {
		t.Errorf("Log without a handler: %v", err)
	}
}
