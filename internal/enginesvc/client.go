package enginesvc

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// Dial returns a function that logs diagnostics to the Engine service at
// addr, as a plugin process logs to the engine that started it, and the
// function that closes the connection. Messages that cannot be sent are
// dropped.
func Dial(addr string) (func(deploy.DiagEvent), func() error, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	client := pulumirpc.NewEngineClient(conn)
	levels := map[deploy.Severity]pulumirpc.LogSeverity{}
	for l, s := range severities {
		levels[s] = l
	}
	log := func(e deploy.DiagEvent) {
		_, _ = client.Log(context.Background(), &pulumirpc.LogRequest{Severity: levels[e.Severity], Message: e.Message,
			Urn: string(e.URN), Ephemeral: e.Ephemeral})
	}
	return log, conn.Close, nil
}
