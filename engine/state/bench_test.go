package state_test

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// benchSnapshot is a stack of n resources shaped like random:RandomString's:
// a secret seed among the inputs, a dozen scalar outputs.
func benchSnapshot(n int) *snapshot.Snapshot {
	const typ = "random:index/randomString:RandomString"
	prov := resource.NewURN("dev", "proj", "", "pulumi:providers:random", "default")
	snap := &snapshot.Snapshot{Resources: []*resource.State{
		{URN: stackURN, Type: resource.RootStackType},
		{URN: prov, Type: "pulumi:providers:random", Custom: true, ID: "prov-id", Parent: stackURN},
	}}
	for i := range n {
		in := resource.Map{"length": resource.Number(8), "special": resource.Bool(true), "upper": resource.Bool(true),
			"lower": resource.Bool(true), "numeric": resource.Bool(true), "minUpper": resource.Number(0),
			"__seed": resource.MakeSecret(resource.String("0123456789abcdef0123456789abcdef"))}
		out := in.Copy()
		delete(out, "__seed")
		out["result"] = resource.String(fmt.Sprintf("r%07d", i))
		snap.Resources = append(snap.Resources, &resource.State{URN: urn(typ, fmt.Sprintf("r%d", i)), Type: typ, Custom: true,
			ID: resource.ID(fmt.Sprintf("r%07d", i)), Parent: stackURN, Provider: string(prov) + "::prov-id",
			Inputs: in, Outputs: out, Created: &fixedTime})
	}
	return snap
}

var benchEncoder = state.NewEncoder(state.EncodeOptions{Secrets: b64Manager{}, Time: fixedTime})

// BenchmarkCheckpointEncode writes the state file of 1,000, 10,000 and
// 100,000 resources, into one slice (bytes) or piece by piece as the local
// backend writes it (written); with -benchmem, B/op is what that
// allocates.
func BenchmarkCheckpointEncode(b *testing.B) {
	const stack = "organization/proj/dev"
	for _, n := range []int{1000, 10_000, 100_000} {
		snap := benchSnapshot(n)
		for _, w := range []struct {
			name  string
			write func() (int64, error)
		}{
			{"bytes", func() (int64, error) {
				data, err := benchEncoder.Checkpoint(stack, snap)
				return int64(len(data)), err
			}},
			{"written", func() (int64, error) {
				c, err := benchEncoder.EncodeCheckpoint(stack, snap)
				if err != nil {
					return 0, err
				}
				return c.WriteTo(io.Discard)
			}},
		} {
			b.Run(fmt.Sprintf("%d/%s", n, w.name), func(b *testing.B) {
				var size int64
				for b.Loop() {
					var err error
					if size, err = w.write(); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(size)
			})
		}
	}
}

// BenchmarkCheckpointDecode reads the state file of 1,000 resources back
// into a snapshot, in one pass (Checkpoint) and in two steps
// (ParseCheckpoint then Deployment).
func BenchmarkCheckpointDecode(b *testing.B) {
	data, err := benchEncoder.Checkpoint("organization/proj/dev", benchSnapshot(1000))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("one-pass", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := state.NewDecoder(b64Manager{}).ReadInOnePass(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("two-step", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			chk, err := state.ParseCheckpoint(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := state.NewDecoder(b64Manager{}).Deployment(chk.Latest); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkJournalEntryEncode encodes one step's journal entry as the local
// backend appends it.
func BenchmarkJournalEntryEncode(b *testing.B) {
	st := benchSnapshot(1).Resources[2]
	e := snapshot.JournalEntry{Kind: snapshot.EntrySuccess, Sequence: 7, OperationID: 7, State: st}
	for b.Loop() {
		je, err := benchEncoder.JournalEntry(e)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(je); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSummary reads what a list of stacks shows of the state file of
// 1,000 resources.
func BenchmarkSummary(b *testing.B) {
	data, err := benchEncoder.Checkpoint("organization/proj/dev", benchSnapshot(1000))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := state.ParseSummary(data); err != nil {
			b.Fatal(err)
		}
	}
}
