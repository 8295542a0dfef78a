package tfplugin

import (
	"crypto/sha256"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// TestMemo asks the provider once per request, binary, RPC and provider
// configuration.
func TestMemo(t *testing.T) {
	m := &memo{m: map[[sha256.Size]byte]proto.Message{}}
	calls := 0
	plan := func(exe, rpc string, config []byte, typ string) string {
		req := &tfplugin6.PlanResourceChange_Request{TypeName: typ}
		resp, err := ask(m, exe, rpc, config, req, func() (*tfplugin6.PlanResourceChange_Response, error) {
			calls++
			return &tfplugin6.PlanResourceChange_Response{PlannedPrivate: []byte(typ)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(resp.GetPlannedPrivate())
	}
	first := plan("null", "Plan", []byte("c"), "a")
	second := plan("null", "Plan", []byte("c"), "a")
	if first != "a" || second != "a" || calls != 1 {
		t.Errorf("the same request twice: %d calls", calls)
	}
	for _, other := range [][3]string{{"other", "Plan", "c"}, {"null", "Validate", "c"}, {"null", "Plan", "d"}, {"null", "Plan", ""}} {
		before := calls
		plan(other[0], other[1], []byte(other[2]), "a")
		if calls != before+1 {
			t.Errorf("%q was answered from the memo", other)
		}
	}
	if plan("null", "Plan", []byte("c"), "b") != "b" {
		t.Error("another request got the answer of the first")
	}
}
