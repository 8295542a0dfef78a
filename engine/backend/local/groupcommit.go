package local

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// errWriterClosed is returned by Append after Close.
var errWriterClosed = errors.New("the operation's journal is closed: the operation has finished")

// groupWriter appends lines to a file for many goroutines at once (group
// commit): one goroutine takes whatever has been queued, writes it with one
// write and one fsync, and wakes the appenders of that batch. An append
// returns once its line is durable; after a failed write every append fails.
type groupWriter struct {
	f *os.File

	mu      sync.Mutex
	durable *sync.Cond // broadcast when a batch is durable or the writer failed
	queued  []byte     // lines waiting for the next batch
	spare   []byte     // the buffer of the last batch, reused
	next    uint64     // the number the queued lines' batch will have
	done    uint64     // the number of the last durable batch
	err     error
	closed  bool

	wake   chan struct{} // a token: there is something to write, or Close was called
	exited chan struct{}
}

func newGroupWriter(f *os.File) *groupWriter {
	w := &groupWriter{f: f, next: 1, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	w.durable = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// Append queues line and waits until it is durable.
func (w *groupWriter) Append(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errWriterClosed
	}
	w.queued = append(w.queued, line...)
	w.signal()
	batch := w.next
	for w.done < batch && w.err == nil {
		w.durable.Wait()
	}
	if w.done >= batch {
		return nil
	}
	return w.err
}

// signal wakes the writer goroutine, if it is not already due to run.
func (w *groupWriter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *groupWriter) run() {
	defer close(w.exited)
	for range w.wake {
		w.mu.Lock()
		if len(w.queued) == 0 {
			closed := w.closed
			w.mu.Unlock()
			if closed {
				return
			}
			continue
		}
		batch, n := w.queued, w.next
		w.queued, w.spare = w.spare[:0], nil
		w.next++
		failed := w.err != nil
		w.mu.Unlock()

		var err error
		if !failed {
			if _, err = w.f.Write(batch); err == nil {
				err = w.f.Sync()
			}
		}

		w.mu.Lock()
		w.spare = batch
		if err != nil {
			w.err = fmt.Errorf("writing the journal %s: %w", w.f.Name(), err)
		} else if !failed {
			w.done = n
		}
		w.durable.Broadcast()
		closed := w.closed
		w.mu.Unlock()
		if closed {
			w.signal() // drain what was queued before Close
		}
	}
}

// Close waits for queued lines to be written, stops the writer and closes
// the file.
func (w *groupWriter) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	w.signal()
	<-w.exited
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}
