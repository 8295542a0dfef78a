package secrets

import "sync"

// Lazy is the manager of a command that reads a state without needing its
// secrets' plaintexts up front (a preview): a state decoded with it keeps
// each secret as its ciphertext and decrypts it when it is first read (see
// state.Decoder), so a command that reads none derives no key.
//
// A secret that cannot be decrypted then (a wrong passphrase) reads as
// unknown, so the command must stop when Fail is called and report Err: it
// names what to do. Methods may be called concurrently.
type Lazy struct {
	Manager
	// Learn is told every string of a secret when it is decrypted, before
	// anything can show it (a Masker's Add).
	Learn func(string)
	// Fail is called once, with the first error decrypting a secret.
	Fail func(error)

	mu  sync.Mutex
	err error
}

// Failed records the first error decrypting a secret and calls Fail.
func (l *Lazy) Failed(err error) {
	l.mu.Lock()
	first := l.err == nil
	if first {
		l.err = err
	}
	l.mu.Unlock()
	if first && l.Fail != nil {
		l.Fail(err)
	}
}

// Err returns the first error decrypting a secret, if there was one.
func (l *Lazy) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
