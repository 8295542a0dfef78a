package bucket

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"gocloud.dev/gcerrors"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// lockAttempts bounds how often Lock retries after a lock changed hands.
const lockAttempts = 3

// stackLock is a lock this process holds on a stack.
type stackLock struct {
	b       *Backend
	ref     backend.StackRef
	key     string
	content []byte
	info    backend.LockInfo

	mu       sync.Mutex
	released bool
}

// Lock implements backend.Backend. Cairn's lock object,
// .pulumi/locks/organization/<project>/<stack>/cairn.json, is created with
// a conditional write that fails if it exists, so exactly one of two
// processes gets it; the holder then checks that no lock of Pulumi's (a
// <uuid>.json beside it) is there, as Pulumi checks for other locks after
// writing its own. A lock of this host whose process is gone is stale and
// broken, with a warning; one of another host is only broken by `cairn
// stack unlock`.
func (b *Backend) Lock(ctx context.Context, ref backend.StackRef) (backend.Lock, error) {
	if err := b.knownStack(ctx, ref); err != nil {
		return nil, err
	}
	info := backend.LockInfo{Pid: os.Getpid(), Username: b.user, Hostname: b.host, Timestamp: time.Now().UTC()}
	content, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	key := path.Join(diy.Locks(ref), diy.LockFile)
	for range lockAttempts {
		err := b.write(ctx, key, content, true)
		if err == nil {
			if holder, ok := b.foreignLock(ctx, ref); ok {
				b.remove(ctx, key)
				return nil, &backend.LockedError{Stack: ref, Holder: holder}
			}
			return &stackLock{b: b, ref: ref, key: key, content: content, info: info}, nil
		}
		if gcerrors.Code(err) != gcerrors.FailedPrecondition {
			return nil, fmt.Errorf("taking the lock of stack %s: %w", ref, err)
		}
		raw, err := b.read(ctx, key)
		if gcerrors.Code(err) == gcerrors.NotFound {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("reading the lock of stack %s: %w", ref, err)
		}
		holder := parseLock(raw)
		if holder.Hostname != b.host || alive(holder.Pid) {
			return nil, &backend.LockedError{Stack: ref, Holder: holder}
		}
		if err := b.remove(ctx, key); err != nil {
			return nil, err
		}
		b.opts.Warnf("broke the lock of stack %s held by %s: that process no longer exists (it probably crashed; "+
			"its operation's journal, if any, is recovered by the next operation)", ref, holder)
	}
	return nil, fmt.Errorf("could not take the lock of stack %s: it kept changing hands; try again", ref)
}

// alive reports whether a process of this host with the given pid runs.
func alive(pid int) bool {
	if pid <= 0 {
		return true // an unreadable lock counts as held
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Unlock implements backend.Backend: it removes every lock object of the
// stack, Cairn's and Pulumi's, but refuses to break a lock that a live
// process of this host holds.
func (b *Backend) Unlock(ctx context.Context, ref backend.StackRef) (*backend.LockInfo, error) {
	if err := b.knownStack(ctx, ref); err != nil {
		return nil, err
	}
	keys, err := b.lockKeys(ctx, ref)
	if err != nil || len(keys) == 0 {
		return nil, err
	}
	info := b.readLock(ctx, keys[0])
	if info.Hostname == b.host && info.Pid != os.Getpid() && alive(info.Pid) {
		return nil, backend.LiveLockError(ref, info)
	}
	for _, k := range keys {
		if err := b.remove(ctx, k); err != nil {
			return nil, fmt.Errorf("removing the lock %s: %w", k, err)
		}
	}
	return &info, nil
}

// Info implements backend.Lock.
func (l *stackLock) Info() backend.LockInfo { return l.info }

// Release implements backend.Lock.
func (l *stackLock) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil
	}
	ctx := context.Background()
	err := l.verify(ctx)
	l.released = true
	if err != nil {
		return err
	}
	if err := l.b.remove(ctx, l.key); err != nil {
		return fmt.Errorf("releasing the lock of stack %s: %w", l.ref, err)
	}
	return nil
}

// verify checks that the lock is still this process's: `cairn stack
// unlock` may have broken it.
func (l *stackLock) verify(ctx context.Context) error {
	if l.released {
		return fmt.Errorf("the lock of stack %s was released", l.ref)
	}
	raw, err := l.b.read(ctx, l.key)
	if err == nil && bytes.Equal(raw, l.content) {
		return nil
	}
	if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("checking the lock of stack %s: %w", l.ref, err)
	}
	return fmt.Errorf("this process no longer holds the lock of stack %s: its lock object was removed while the operation ran; "+
		"nothing more was written, and the operation's journal is left for the next operation to recover", l.ref)
}

// lockKeys lists the lock objects of a stack, Cairn's first.
func (b *Backend) lockKeys(ctx context.Context, ref backend.StackRef) ([]string, error) {
	keys, err := b.keys(ctx, diy.Locks(ref)+"/", "/")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range keys {
		if strings.HasSuffix(k, ".json") {
			out = append(out, k)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return path.Base(out[i]) == diy.LockFile && path.Base(out[j]) != diy.LockFile })
	return out, nil
}

// foreignLock returns the holder of a Pulumi lock of the stack, if there is
// one.
func (b *Backend) foreignLock(ctx context.Context, ref backend.StackRef) (backend.LockInfo, bool) {
	keys, _ := b.lockKeys(ctx, ref)
	for _, k := range keys {
		if path.Base(k) != diy.LockFile {
			return b.readLock(ctx, k), true
		}
	}
	return backend.LockInfo{}, false
}

// currentLock returns the holder of the stack's lock, or nil.
func (b *Backend) currentLock(ctx context.Context, ref backend.StackRef) *backend.LockInfo {
	keys, _ := b.lockKeys(ctx, ref)
	if len(keys) == 0 {
		return nil
	}
	info := b.readLock(ctx, keys[0])
	return &info
}

func (b *Backend) readLock(ctx context.Context, key string) backend.LockInfo {
	raw, _ := b.read(ctx, key)
	return parseLock(raw)
}

// parseLock reads a lock's content; an unreadable one says nothing about
// its holder, which then counts as alive.
func parseLock(raw []byte) backend.LockInfo {
	var info backend.LockInfo
	json.Unmarshal(raw, &info)
	return info
}
