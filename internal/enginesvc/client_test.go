package enginesvc_test

import (
	"testing"

	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/internal/enginesvc"
	"github.com/cairn-iac/cairn/internal/launch"
)

// TestDial logs through the Engine service: the diagnostic arrives as it
// was sent, severity and resource included.
func TestDial(t *testing.T) {
	got := make(chan deploy.DiagEvent, 1)
	srv, err := launch.Listen(func(s *grpc.Server) {
		enginesvc.Register(s, enginesvc.Options{Diag: func(e deploy.DiagEvent) { got <- e }})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(0) })
	log, closeLog, err := enginesvc.Dial(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer closeLog()
	sent := deploy.DiagEvent{URN: "urn:pulumi:dev::p::t:index:T::a", Severity: deploy.SeverityWarning, Message: "careful"}
	log(sent)
	if e := <-got; e != sent {
		t.Errorf("received %+v, sent %+v", e, sent)
	}
}
