package deploy

import (
	"bytes"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// seedLog records the seed of each Check that has no old inputs (a creation
// or a replacement), by resource name.
type seedLog struct {
	mu    sync.Mutex
	seeds map[string][][]byte
}

func recordSeeds(h *harness) *seedLog {
	l := &seedLog{seeds: map[string][][]byte{}}
	h.provider("pkgA", func(p *fakeProvider) {
		p.CheckF = func(req provider.CheckRequest) (provider.CheckResponse, error) {
			if req.Olds == nil {
				seed, err := req.RandomSeed()
				if err != nil {
					return provider.CheckResponse{}, err
				}
				l.mu.Lock()
				l.seeds[req.URN.Name()] = append(l.seeds[req.URN.Name()], seed)
				l.mu.Unlock()
			}
			return provider.CheckResponse{Inputs: req.News}, nil
		}
	})
	return l
}

// last returns the latest seed recorded for name.
func (l *seedLog) last(t *testing.T, name string) []byte {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.seeds[name]
	if len(s) == 0 {
		t.Fatalf("no seed recorded for %s", name)
	}
	return s[len(s)-1]
}

func TestSeedsAreSecretAndFresh(t *testing.T) {
	h := newHarness(t)
	seeds := recordSeeds(h)
	key := bytes.Repeat([]byte{7}, 32)
	withKey := func(o *Options) { o.SeedKey = key }
	prog := program(res("a", nil))

	// A preview and the update after it agree; only the update records its
	// generation.
	if _, err := h.preview(prog, withKey); err != nil {
		t.Fatal(err)
	}
	previewed := seeds.last(t, "a")
	if len(previewed) != 32 {
		t.Fatalf("seed length %d, want 32", len(previewed))
	}
	if h.snap != nil {
		t.Fatal("the preview recorded state")
	}
	h.mustUp(prog, withKey)
	created := seeds.last(t, "a")
	if !bytes.Equal(previewed, created) {
		t.Error("the update's seed differs from its preview's")
	}
	equal(t, "generation", h.snap.Seeds.Generation, int64(1))
	if !bytes.Equal(h.snap.Seeds.Key, key) {
		t.Errorf("the state's seed key is %x, want the given one", h.snap.Seeds.Key)
	}

	// A replacement draws a seed unlike the original's, as does a
	// re-creation after a delete.
	h.mustUp(prog, func(o *Options) { o.Replaces = []string{string(urnOf("a"))} })
	replaced := seeds.last(t, "a")
	h.mustUp(program(), allowEmpty)
	h.mustUp(prog)
	recreated := seeds.last(t, "a")
	equal(t, "generation (the delete derived no seed)", h.snap.Seeds.Generation, int64(3))
	for _, s := range [][]byte{replaced, recreated} {
		if bytes.Equal(s, created) {
			t.Error("a later creation of a reused the seed of its first")
		}
	}
	if bytes.Equal(replaced, recreated) {
		t.Error("the re-creation reused the replacement's seed")
	}

	// Another stack with the same URNs but its own key gets other seeds.
	other := newHarness(t)
	otherSeeds := recordSeeds(other)
	other.mustUp(prog)
	if bytes.Equal(otherSeeds.last(t, "a"), created) {
		t.Error("two stacks derived the same seed for the same URN and generation")
	}
	if bytes.Equal(other.snap.Seeds.Key, key) || len(other.snap.Seeds.Key) != 32 {
		t.Errorf("the other stack's key = %x, want 32 fresh bytes", other.snap.Seeds.Key)
	}
}

// Journals store entry kinds by name, so the names must never change.
func TestEntryKindNames(t *testing.T) {
	var got []string
	for _, k := range []snapshot.EntryKind{snapshot.EntryBegin, snapshot.EntrySuccess, snapshot.EntryFailure, snapshot.EntryRefresh, snapshot.EntryOutputs, snapshot.EntrySeeds} {
		got = append(got, k.String())
	}
	equal(t, "names", got, []string{"begin", "success", "failure", "refresh", "outputs", "seeds"})
}
