package local_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// quiet is the effects provider without side effects, so that what a
// benchmark measures is the engine and the backend.
type quiet struct{ *effects }

func (quiet) Create(_ context.Context, r provider.CreateRequest) (provider.CreateResponse, error) {
	return provider.CreateResponse{ID: resource.ID(r.URN.Name() + "-id"), Outputs: r.Inputs}, nil
}

// bytesWritten returns what this process has written so far (the wchar of
// /proc/self/io: every write system call, to any file).
func bytesWritten(b *testing.B) int64 {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		b.Skip("measuring bytes written needs /proc/self/io")
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if v, ok := strings.CutPrefix(lines.Text(), "wchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	b.Skip("/proc/self/io has no wchar")
	return 0
}

// BenchmarkUp creates N resources through the local backend: journal,
// group commit, and the state written once by Finish. Bytes written grow
// with N (about 10 times from 1,000 to 10,000), not with N².
//
//	go test ./engine/backend/local -run '^$' -bench Up -benchtime 3x
func BenchmarkUp(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			opts := deploy.Options{Host: hostOf(quiet{&effects{}}), Program: wideProgram(n, plainProps, nil), Parallel: 32}
			var written int64
			for range b.N {
				b.StopTimer()
				be, ref, _ := newStack(b)
				before := bytesWritten(b)
				b.StartTimer()
				if _, err := run(context.Background(), be, ref, backend.KindUpdate, nil, opts, nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				written += bytesWritten(b) - before
				b.StartTimer()
			}
			b.ReportMetric(float64(written)/float64(b.N), "written-B/op")
			b.ReportMetric(float64(written)/float64(b.N)/float64(n), "written-B/resource")
		})
	}
}

// BenchmarkNoChangeUp updates a stack of N resources with nothing to
// change: the journal gets no line but its header, and the state is
// written once.
//
//	go test ./engine/backend/local -run '^$' -bench NoChangeUp -benchtime 3x
func BenchmarkNoChangeUp(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			opts := deploy.Options{Host: hostOf(quiet{&effects{}}), Program: wideProgram(n, plainProps, nil), Parallel: 32}
			be, ref, _ := newStack(b)
			if _, err := run(context.Background(), be, ref, backend.KindUpdate, nil, opts, nil); err != nil {
				b.Fatal(err)
			}
			var written int64
			b.ResetTimer()
			for range b.N {
				before := bytesWritten(b)
				if _, err := run(context.Background(), be, ref, backend.KindUpdate, nil, opts, nil); err != nil {
					b.Fatal(err)
				}
				written += bytesWritten(b) - before
			}
			b.ReportMetric(float64(written)/float64(b.N), "written-B/op")
		})
	}
}

// BenchmarkJournalAppend appends step entries of a typical resource from
// many goroutines; each append returns once its entry is durable.
func BenchmarkJournalAppend(b *testing.B) {
	be, ref, _ := newStack(b)
	_, op := begin(b, be, ref, nil)
	st := &resource.State{URN: resource.NewURN("dev", "proj", "", thingType, "bucket"), Type: thingType, Custom: true, ID: "bucket-1234",
		Inputs:  resource.Map{"name": resource.String("bucket"), "acl": resource.String("private"), "tags": resource.Object(resource.Map{"env": resource.String("dev")})},
		Outputs: resource.Map{"arn": resource.String("arn:aws:s3:::bucket-1234"), "region": resource.String("eu-west-1"), "size": resource.Number(8)}}
	var seq atomic.Int64
	j := op.Journal()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n := seq.Add(1)
			if err := j.Append(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, Sequence: n, OperationID: n, State: st}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	if err := op.Finish(context.Background(), op.Base(), backend.Summary{}); err != nil {
		b.Fatal(err)
	}
}
