// Command pulumi-resource-latency is the provider plugin of the benchmark's
// latency stacks: its one resource type, latency:index:Sleep, takes a fixed
// time for each create, read, update and delete, so that the wall time of a
// deployment shows how well the engine overlaps provider operations. The
// time is CAIRN_BENCH_LATENCY (a Go duration), 100ms by default.
//
// The benchmark builds it and names it in the project file:
//
//	plugins:
//	  providers:
//	    - name: latency
//	      path: /path/to/bin/pulumi-resource-latency
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/props"
	"github.com/cairn-iac/cairn/plugins/serve"
)

const version = "1.0.0"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-resource-latency:", err)
		os.Exit(1)
	}
}

func run() error {
	delay := 100 * time.Millisecond
	if s := os.Getenv("CAIRN_BENCH_LATENCY"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("CAIRN_BENCH_LATENCY: %w", err)
		}
		delay = d
	}
	pkg := props.MustLoad(schemaJSON, version)
	f := provider.Factory{Pkg: pkg.Name, Version: version, New: func(context.Context) (provider.Provider, error) {
		return &sleeper{Base: props.Base{Schema: pkg}, delay: delay}, nil
	}}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return serve.Main(ctx, f, os.Stdout)
}
