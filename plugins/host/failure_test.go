package host_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/plugins/host"
)

func TestPluginFailuresFailTheirSteps(t *testing.T) {
	tests := []struct {
		name    string
		inputs  resource.Map
		timeout *resource.CustomTimeouts
		want    []string
		// pending is set when whether the create happened is unknown, so
		// it stays pending instead of being recorded as failed.
		pending bool
	}{
		{"crash mid-create", resource.Map{"crash": resource.Bool(true)}, nil,
			[]string{"pulumi-resource-kv failed during Create", "exited unexpectedly", "crashing in the middle of Create"}, true},
		{"never answers", resource.Map{"hang": resource.Bool(true)}, &resource.CustomTimeouts{Create: 1},
			[]string{"pulumi-resource-kv failed during Create", "no answer within 1.5s", "customTimeouts"}, true},
		{"fails", resource.Map{"fail": str("quota exceeded")}, nil,
			[]string{"quota exceeded"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, host.ResolverOptions{Options: host.Options{TimeoutGrace: 500 * time.Millisecond}})
			start := time.Now()
			_, err := e.run(deploy.Update, e.options(program(func(r *registrar) error {
				_, err := r.item(itemKV, "x", tt.inputs, func(req *deploy.RegisterRequest) { req.CustomTimeouts = tt.timeout })
				return err
			}), false))
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("the update took %s", d)
			}
			if err == nil {
				t.Fatal("the update should fail")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			var se *deploy.StepError
			if !errors.As(err, &se) || se.URN.Name() != "x" {
				t.Errorf("the error does not name the resource: %v", err)
			}
			urn := resource.NewURN(stack, project, resource.RootStackType, itemKV, "x")
			want := []snapshot.EntryKind{snapshot.EntryBegin, snapshot.EntryFailure}
			if tt.pending {
				want = want[:1]
			}
			if got := e.journal.outcome(urn, resource.OpCreating); !reflect.DeepEqual(got, want) {
				t.Errorf("journal of the create = %v, want %v", got, want)
			}
			if got := len(e.snap.PendingOperations) == 1; got != tt.pending {
				t.Errorf("pending operations = %v, want the create pending: %v", e.snap.PendingOperations, tt.pending)
			}
			if e.find("x") != nil {
				t.Error("the failed resource is in the state")
			}
			if e.find(project+"-"+stack) == nil {
				t.Error("the stack resource was not recorded")
			}
		})
	}
}

func TestPartialFailureCrossesTheWire(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})
	_, err := e.run(deploy.Update, e.options(program(func(r *registrar) error {
		_, err := r.item(itemKV, "p", resource.Map{"partial": resource.Bool(true), "key": str("half"), "pw": resource.MakeSecret(str("s"))})
		return err
	}), false))
	if err == nil || !strings.Contains(err.Error(), "the item is not ready") {
		t.Fatalf("got %v, want the partial failure", err)
	}
	p := e.mustFind("p")
	if p.ID != "half" || !reflect.DeepEqual(p.InitErrors, []string{"the item is not ready"}) {
		t.Errorf("recorded %s with init errors %q", p.ID, p.InitErrors)
	}
	if !p.Outputs["pw"].IsSecret() {
		t.Errorf("the partial outputs lost a secret: %v", p.Outputs["pw"])
	}
}

func TestCheckFailuresCrossTheWire(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})
	_, err := e.run(deploy.Update, e.options(program(func(r *registrar) error {
		_, err := r.item(itemKV, "bad", resource.Map{"value": str("invalid")})
		return err
	}), true))
	if err == nil || !strings.Contains(err.Error(), `value: must not be "invalid"`) {
		t.Errorf("got %v, want the check failure", err)
	}
}
