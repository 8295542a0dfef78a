package tfplugin

import (
	"fmt"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin5"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// TestCarry carries messages between the protocol versions: in the binary
// form where both number their fields alike, and by name where they do
// not (the schema's attributes number write_only differently).
func TestCarry(t *testing.T) {
	plan := &tfplugin6.PlanResourceChange_Request{TypeName: "null_resource", PriorPrivate: []byte("p"),
		Config: &tfplugin6.DynamicValue{Msgpack: []byte{0x80}}, ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}}
	var plan5 tfplugin5.PlanResourceChange_Request
	if !sameWire(plan.ProtoReflect().Descriptor(), plan5.ProtoReflect().Descriptor()) {
		t.Error("PlanResourceChange requests are not wire-alike")
	}
	if err := carry(plan, &plan5); err != nil {
		t.Fatal(err)
	}
	if plan5.GetTypeName() != "null_resource" || string(plan5.GetPriorPrivate()) != "p" || string(plan5.GetConfig().GetMsgpack()) != "\x80" ||
		!plan5.GetClientCapabilities().GetWriteOnlyAttributesAllowed() {
		t.Errorf("carried %v", &plan5)
	}

	schema5 := &tfplugin5.GetProviderSchema_Response{Provider: &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{
		Attributes: []*tfplugin5.Schema_Attribute{{Name: "password", Type: []byte(`"string"`), Optional: true, WriteOnly: true}}}}}
	var schema6 tfplugin6.GetProviderSchema_Response
	if sameWire(schema5.ProtoReflect().Descriptor(), schema6.ProtoReflect().Descriptor()) {
		t.Error("schemas are wire-alike, yet write_only is 10 in protocol 5 and nested_type is 10 in 6")
	}
	if err := carry(schema5, &schema6); err != nil {
		t.Fatal(err)
	}
	want := &tfplugin6.Schema_Attribute{Name: "password", Type: []byte(`"string"`), Optional: true, WriteOnly: true}
	if got := schema6.GetProvider().GetBlock().GetAttributes()[0]; !proto.Equal(got, want) {
		t.Errorf("carried %v, want %v", got, want)
	}
}

// TestCarryConcurrentFirstCalls carries a protocol 5 schema from many
// goroutines at once while nothing is known of which messages are
// wire-alike, as the first calls of a process do: every one keeps
// write_only, which reading the binary form as protocol 6 would drop.
func TestCarryConcurrentFirstCalls(t *testing.T) {
	schema5 := &tfplugin5.GetProviderSchema_Response{ResourceSchemas: map[string]*tfplugin5.Schema{"cairnsdk_item": {Block: &tfplugin5.Schema_Block{
		Attributes: []*tfplugin5.Schema_Attribute{{Name: "password_wo", Type: []byte(`"string"`), Optional: true, WriteOnly: true}}}}}}
	const rounds, callers = 50, 32
	for range rounds {
		wireAlike.Clear() // as in a new process
		var ready, done sync.WaitGroup
		start := make(chan struct{})
		lost := make(chan error, callers)
		for range callers {
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				<-start
				var schema6 tfplugin6.GetProviderSchema_Response
				if err := carry(schema5, &schema6); err != nil {
					lost <- err
					return
				}
				if a := schema6.GetResourceSchemas()["cairnsdk_item"].GetBlock().GetAttributes(); len(a) != 1 || !a[0].GetWriteOnly() {
					lost <- fmt.Errorf("carried %v without write_only", a)
				}
			}()
		}
		ready.Wait()
		close(start)
		done.Wait()
		close(lost)
		for err := range lost {
			t.Fatal(err)
		}
	}
}
