package serve_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/serve"
)

// start runs Main for a KV provider and returns a client and a way to stop
// it that reports Main's error.
func start(t *testing.T, handshake bool) (pulumirpc.ResourceProviderClient, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve.Main(ctx, plugintest.Factory("kv", "3.1.4", handshake), w) }()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(line), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	stop := func() error {
		conn.Close()
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Main did not return after its context ended")
			return nil
		}
	}
	return pulumirpc.NewResourceProviderClient(conn), stop
}

func TestMainServesUntilCancelled(t *testing.T) {
	client, stop := start(t, false)
	ctx := context.Background()
	info, err := client.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil || info.GetVersion() != "3.1.4" {
		t.Errorf("GetPluginInfo = %v, %v", info, err)
	}
	if _, err := client.Handshake(ctx, &pulumirpc.ProviderHandshakeRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("Handshake of a provider that negotiates in Configure: %v, want UNIMPLEMENTED", err)
	}
	// An engine that sends only the deprecated variables.
	//lint:ignore SA1019 the deprecated field is what is tested
	resp, err := client.Configure(ctx, &pulumirpc.ConfigureRequest{Variables: map[string]string{
		"kv:config:dir": t.TempDir(), "kv:config:acceptSecrets": "yes"}})
	if err != nil || !resp.GetAcceptSecrets() || !resp.GetSupportsPreview() {
		t.Errorf("Configure = %v, %v", resp, err)
	}
	// Names come from the URN when the request has none.
	check, err := client.Check(ctx, &pulumirpc.CheckRequest{Urn: "urn:pulumi:dev::p::kv:index:Item::x"})
	if err != nil || len(check.GetFailures()) != 0 {
		t.Errorf("Check = %v, %v", check, err)
	}
	if _, err := client.Parameterize(ctx, &pulumirpc.ParameterizeRequest{}); status.Code(err) != codes.Unknown || !strings.Contains(err.Error(), "package name") {
		t.Errorf("Parameterize with nothing: %v, want the provider's error", err)
	}
	param, err := client.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: "bucket", Version: "1.0.0", Value: []byte("bucket")}}})
	if err != nil || param.GetName() != "bucket" {
		t.Errorf("Parameterize with a value = %v, %v; want package bucket", param, err)
	}
	if err := stop(); err != nil {
		t.Errorf("Main: %v", err)
	}
}

func TestHandshaker(t *testing.T) {
	client, stop := start(t, true)
	defer stop()
	resp, err := client.Handshake(context.Background(), &pulumirpc.ProviderHandshakeRequest{})
	if err != nil || resp.GetAcceptSecrets() || !resp.GetAcceptResources() {
		t.Errorf("Handshake = %v, %v; want resources but not secrets", resp, err)
	}
}
