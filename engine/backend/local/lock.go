package local

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// lockFile is the name of Cairn's lock in a stack's lock directory. Other
// *.json files there are Pulumi's locks (named by a UUID), which Cairn
// respects, as Pulumi respects Cairn's.
const lockFile = "cairn.json"

// lockAttempts bounds how often Lock retries after a lock changed hands.
const lockAttempts = 3

// stackLock is a lock this process holds on a stack.
type stackLock struct {
	b       *Backend
	ref     backend.StackRef
	path    string
	content []byte
	info    backend.LockInfo
	// file is the lock file, flocked for as long as the lock is held.
	file *os.File

	mu       sync.Mutex
	released bool
	// journal is the running operation's journal, flocked until the
	// operation has finished: while it is, no other process recovers it,
	// even if the lock file was removed.
	journal *os.File
}

// Lock implements backend.Backend. The lock file is created complete or not
// at all (written aside, then hard-linked into place, which fails if a lock
// exists), so exactly one of two concurrent callers gets it; it is flocked
// before it appears and until it is released. A lock file that no live
// process holds flocked is stale and broken.
func (b *Backend) Lock(ctx context.Context, ref backend.StackRef) (backend.Lock, error) {
	if err := b.knownStack(ref); err != nil {
		return nil, err
	}
	info := backend.LockInfo{Pid: os.Getpid(), Username: b.user, Hostname: b.host, Timestamp: time.Now().UTC()}
	content, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	dir := b.layout.locks(ref)
	path := filepath.Join(dir, lockFile)
	for range lockAttempts {
		f, err := linkNew(path, content, true)
		if err == nil {
			if holder, ok := foreignLock(dir); ok {
				os.Remove(path)
				f.Close()
				return nil, &backend.LockedError{Stack: ref, Holder: holder}
			}
			return &stackLock{b: b, ref: ref, path: path, content: content, info: info, file: f}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("taking the lock of stack %s: %w", ref, err)
		}
		raw, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("reading the lock of stack %s: %w", ref, err)
		}
		holder := parseLock(raw)
		if holder.Hostname != b.host || held(path) {
			return nil, &backend.LockedError{Stack: ref, Holder: holder}
		}
		if breakLock(path, raw) {
			b.opts.Warnf("broke the lock of stack %s held by %s: that process no longer exists (it probably crashed; "+
				"its operation's journal, if any, is recovered by the next operation)", ref, holder)
		}
	}
	return nil, fmt.Errorf("could not take the lock of stack %s: it kept changing hands; try again", ref)
}

// Unlock implements backend.Backend: it removes every lock file of the
// stack, Cairn's and Pulumi's, but refuses to break a lock that a live
// process holds.
func (b *Backend) Unlock(ctx context.Context, ref backend.StackRef) (*backend.LockInfo, error) {
	if err := b.knownStack(ref); err != nil {
		return nil, err
	}
	files, err := lockFiles(b.layout.locks(ref))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	info := readLock(files[0])
	if osLocks && filepath.Base(files[0]) == lockFile && held(files[0]) {
		return nil, backend.LiveLockError(ref, info)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("removing the lock %s: %w", f, err)
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
	err := l.verify()
	l.released = true
	l.closeJournal()
	defer l.file.Close() // the flock is kept until the file is gone
	if err != nil {
		return err
	}
	if err := os.Remove(l.path); err != nil {
		return fmt.Errorf("releasing the lock of stack %s: %w", l.ref, err)
	}
	return nil
}

// closeJournal drops the flock of the operation's journal.
func (l *stackLock) closeJournal() {
	if l.journal != nil {
		l.journal.Close()
		l.journal = nil
	}
}

// verify checks that the lock is still this process's: `cairn stack
// unlock` may have broken it.
func (l *stackLock) verify() error {
	if l.released {
		return fmt.Errorf("the lock of stack %s was released", l.ref)
	}
	raw, err := os.ReadFile(l.path)
	if err == nil && bytes.Equal(raw, l.content) {
		return nil
	}
	return fmt.Errorf("this process no longer holds the lock of stack %s: its lock file was removed while the operation ran; "+
		"nothing more was written, and the operation's journal is left for the next operation to recover", l.ref)
}

// linkNew creates path holding content, or fails with fs.ErrExist if it
// exists: the content is written to a temporary file first and hard-linked
// into place, so path is never seen half written. With flock, the file is
// returned open and flocked, from before it appears at path.
func linkNew(path string, content []byte, flock bool) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, err
	}
	tmp := filepath.Join(dir, "."+filepath.Base(path)+"."+randomSuffix()+".tmp")
	defer os.Remove(tmp)
	if err := atomicfile.WriteSynced(tmp, atomicfile.Bytes(content), os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode); err != nil {
		return nil, err
	}
	var f *os.File
	if flock {
		var err error
		if f, err = openFlocked(tmp); err != nil {
			return nil, err
		}
	}
	err := os.Link(tmp, path)
	if err == nil {
		err = atomicfile.SyncDir(dir)
	}
	if err != nil && f != nil {
		f.Close()
		f = nil
	}
	return f, err
}

// openFlocked opens a file that no other process knows yet and flocks it.
func openFlocked(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if ok, err := tryFlock(f); !ok || err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %v", path, err)
	}
	return f, nil
}

// held reports whether a live process holds the file at path flocked
// (always, on a system without flock).
func held(path string) bool {
	if !osLocks {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	ok, err := tryFlock(f)
	return !ok || err != nil
}

// breakLock removes a stale lock whose content was raw. It moves the lock
// aside first and checks what it moved: if another process replaced the
// stale lock with its own meanwhile, that lock is put back.
func breakLock(path string, raw []byte) bool {
	aside := path + ".broken-" + randomSuffix()
	if err := os.Rename(path, aside); err != nil {
		return false
	}
	moved, err := os.ReadFile(aside)
	if err == nil && bytes.Equal(moved, raw) {
		os.Remove(aside)
		return true
	}
	if os.Link(aside, path) == nil {
		os.Remove(aside)
	}
	return false
}

// lockFiles lists the lock files of a stack's lock directory, Cairn's first.
func lockFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return filepath.Base(files[i]) == lockFile && filepath.Base(files[j]) != lockFile })
	return files, nil
}

// foreignLock returns the holder of a Pulumi lock in dir, if there is one.
func foreignLock(dir string) (backend.LockInfo, bool) {
	files, _ := lockFiles(dir)
	for _, f := range files {
		if filepath.Base(f) != lockFile {
			return readLock(f), true
		}
	}
	return backend.LockInfo{}, false
}

// currentLock returns the holder of the stack's lock, or nil.
func currentLock(dir string) *backend.LockInfo {
	files, _ := lockFiles(dir)
	if len(files) == 0 {
		return nil
	}
	info := readLock(files[0])
	return &info
}

func readLock(path string) backend.LockInfo {
	raw, _ := os.ReadFile(path)
	return parseLock(raw)
}

// parseLock reads a lock file's content; an unreadable one says nothing
// about its holder, which then counts as alive.
func parseLock(raw []byte) backend.LockInfo {
	var info backend.LockInfo
	json.Unmarshal(raw, &info)
	return info
}
