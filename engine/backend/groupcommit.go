package backend

import (
	"errors"
	"sync"
	"time"
)

// ErrWriterClosed is returned by Append after Close.
var ErrWriterClosed = errors.New("the operation's journal is closed: the operation has finished")

// GroupWriter appends lines for many goroutines at once (group commit): one
// goroutine takes whatever has been queued, writes it with one call of its
// write function (which makes the batch durable: a write and an fsync, or a
// database transaction), and wakes the appenders of that batch. An append
// returns once its line is durable; after a failed write every append fails.
type GroupWriter struct {
	write  func(batch []byte) error
	close  func() error
	linger time.Duration

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

// NewGroupWriter starts a group writer that makes batches durable with
// write, which returns an error that says what it was writing; Close calls
// close, if it is not nil, once the last batch is written.
func NewGroupWriter(write func(batch []byte) error, close func() error) *GroupWriter {
	return NewLingeringWriter(0, write, close)
}

// NewLingeringWriter is NewGroupWriter for a store whose writes take
// milliseconds (object storage): woken by a line, the writer waits linger
// before it takes the batch, so that the appenders the previous batch woke
// add theirs to it. Fewer, larger batches: each append waits for fewer
// writes queued before its own.
func NewLingeringWriter(linger time.Duration, write func(batch []byte) error, close func() error) *GroupWriter {
	w := &GroupWriter{write: write, close: close, linger: linger, next: 1, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	w.durable = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// Append queues line and waits until it is durable.
func (w *GroupWriter) Append(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrWriterClosed
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
func (w *GroupWriter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *GroupWriter) run() {
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
		if w.linger > 0 && !w.closed {
			w.mu.Unlock()
			time.Sleep(w.linger)
			w.mu.Lock()
		}
		batch, n := w.queued, w.next
		w.queued, w.spare = w.spare[:0], nil
		w.next++
		failed := w.err != nil
		w.mu.Unlock()

		var err error
		if !failed {
			err = w.write(batch)
		}

		w.mu.Lock()
		w.spare = batch
		if err != nil {
			w.err = err
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

// Close waits for queued lines to be written, stops the writer and calls
// its close function. It returns the error of a failed write.
func (w *GroupWriter) Close() error {
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
	if w.close != nil {
		if cerr := w.close(); err == nil {
			err = cerr
		}
	}
	return err
}
