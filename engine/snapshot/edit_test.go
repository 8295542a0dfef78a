package snapshot_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

const (
	stackURN  = resource.URN("urn:pulumi:dev::web::pulumi:pulumi:Stack::web-dev")
	petURN    = resource.URN("urn:pulumi:dev::web::random:index/randomPet:RandomPet::pet")
	loneURN   = resource.URN("urn:pulumi:dev::web::random:index/randomPet:RandomPet::lone")
	guardURN  = resource.URN("urn:pulumi:dev::web::random:index/randomPet:RandomPet::guard")
	missingID = resource.URN("urn:pulumi:dev::web::random:index/randomPet:RandomPet::nosuch")
)

// full returns a snapshot in which every field is set, so that an edit
// that drops one is seen.
func full() *snapshot.Snapshot {
	pending := &resource.State{URN: "urn:pulumi:dev::web::random:index/randomPet:RandomPet::new", Type: "random:index/randomPet:RandomPet", Custom: true}
	s := &snapshot.Snapshot{
		Resources: []*resource.State{
			{URN: stackURN, Type: resource.RootStackType},
			{URN: petURN, Type: "random:index/randomPet:RandomPet", Custom: true, ID: "p", Parent: stackURN},
			{URN: loneURN, Type: "random:index/randomPet:RandomPet", Custom: true, ID: "l", Parent: stackURN},
			{URN: guardURN, Type: "random:index/randomPet:RandomPet", Custom: true, ID: "g", Parent: stackURN, Protect: true},
		},
		PendingOperations: []resource.Operation{{Resource: pending, Type: resource.OpCreating}},
		Seeds: snapshot.Seeds{Key: []byte("0123456789abcdef0123456789abcdef"), Generation: 3,
			Sealed: &snapshot.SealedKey{Value: "sealed", Provider: "passphrase", ProviderState: `{"salt":"x"}`}},
	}
	v := reflect.ValueOf(s).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			panic("full() leaves Snapshot." + v.Type().Field(i).Name + " unset: set it so that the edits are tested to keep it")
		}
	}
	return s
}

// sameBut checks that every field of got but Resources equals want's.
func sameBut(t *testing.T, edit string, got, want *snapshot.Snapshot) {
	t.Helper()
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := 0; i < g.NumField(); i++ {
		name := g.Type().Field(i).Name
		if name != "Resources" && !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("%s changed Snapshot.%s: got %+v, want %+v", edit, name, g.Field(i).Interface(), w.Field(i).Interface())
		}
	}
}

func TestEditsKeepEveryField(t *testing.T) {
	base := full()
	edits := map[string]func(*snapshot.Snapshot) (*snapshot.Snapshot, error){
		"Copy":      func(s *snapshot.Snapshot) (*snapshot.Snapshot, error) { return s.Copy(), nil },
		"Forget":    func(s *snapshot.Snapshot) (*snapshot.Snapshot, error) { return s.Forget(loneURN, false) },
		"Unprotect": func(s *snapshot.Snapshot) (*snapshot.Snapshot, error) { return s.Unprotect(guardURN) },
	}
	for name, edit := range edits {
		got, err := edit(base)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameBut(t, name, got, full())
		sameBut(t, name+" (the original)", base, full())
		if !reflect.DeepEqual(base.Resources, full().Resources) {
			t.Errorf("%s changed the original's resources", name)
		}
		if err := got.VerifyIntegrity(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestForget(t *testing.T) {
	got, err := full().Forget(loneURN, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Find(loneURN) != nil || len(got.Resources) != 3 {
		t.Errorf("after Forget: %d resources, lone found: %v", len(got.Resources), got.Find(loneURN) != nil)
	}

	for _, tt := range []struct {
		urn   resource.URN
		force bool
		want  string
	}{
		{guardURN, false, "is protected"},
		{stackURN, false, "depend on " + string(stackURN)},
		{missingID, false, "no resource " + string(missingID)},
	} {
		_, err := full().Forget(tt.urn, tt.force)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Forget(%s, %v) = %v, want an error containing %q", tt.urn, tt.force, err, tt.want)
		}
	}
	if got, err := full().Forget(guardURN, true); err != nil || got.Find(guardURN) != nil {
		t.Errorf("Forget(protected, force) = %v", err)
	}
	var nf *snapshot.NotFoundError
	if _, err := full().Unprotect(missingID); !errors.As(err, &nf) || nf.URN != missingID {
		t.Errorf("Unprotect(missing) = %v, want a NotFoundError", err)
	}
}

func TestUnprotect(t *testing.T) {
	base := full()
	got, err := base.Unprotect(guardURN)
	if err != nil {
		t.Fatal(err)
	}
	if got.Find(guardURN).Protect || !base.Find(guardURN).Protect {
		t.Errorf("after Unprotect: protect = %v, original %v; want false, true", got.Find(guardURN).Protect, base.Find(guardURN).Protect)
	}
}
