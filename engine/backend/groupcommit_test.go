package backend

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestGroupWriterWritesEveryLineOnce(t *testing.T) {
	var written []byte
	w := NewGroupWriter(func(batch []byte) error {
		written = append(written, batch...) // one batch at a time
		return nil
	}, nil)
	const goroutines, each = 32, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := w.Append([]byte(fmt.Sprintf("%d-%d\n", g, i))); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d appends in %d batches", goroutines*each, w.done)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(written))
	sort.Strings(got)
	var want []string
	for g := range goroutines {
		for i := range each {
			want = append(want, fmt.Sprintf("%d-%d", g, i))
		}
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the file holds %d lines, want each of the %d appended once", len(got), len(want))
	}
	if err := w.Append([]byte("late\n")); !errors.Is(err, ErrWriterClosed) {
		t.Errorf("Append after Close = %v, want ErrWriterClosed", err)
	}
}

func TestGroupWriterFailureIsSticky(t *testing.T) {
	writes := 0
	w := NewGroupWriter(func([]byte) error {
		writes++
		return errors.New("writing the journal: disk full")
	}, nil)
	for i := range 2 {
		if err := w.Append([]byte("x\n")); err == nil || !strings.Contains(err.Error(), "writing the journal") {
			t.Errorf("append %d = %v, want the write error", i, err)
		}
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed write returned no error")
	}
	if writes != 1 {
		t.Errorf("%d writes after a failure, want none after the first", writes)
	}
}

func TestLingeringWriterGathersABatch(t *testing.T) {
	var batches []string
	w := NewLingeringWriter(time.Second, func(batch []byte) error {
		batches = append(batches, string(batch))
		return nil
	}, nil)
	var wg sync.WaitGroup
	for _, line := range []string{"a\n", "b\n", "c\n"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Append([]byte(line)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(batches) != 1 {
		t.Errorf("three lines appended at once were written in %d batches %q, want one", len(batches), batches)
	}
}
