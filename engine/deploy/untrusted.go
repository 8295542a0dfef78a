package deploy

import (
	"maps"
	"sync"
	"time"
)

// untrusted accounts for the resources whose digest matched the one
// recorded, so that the fast path could have skipped their calls, but
// whose provider it does not trust (see Options.FastPathPackages): how
// many of each package (provider resources left out), and the wall time
// during which the calls of any of them were in flight.
type untrusted struct {
	mu       sync.Mutex
	counts   map[string]int
	inFlight int
	since    time.Time
	busy     time.Duration
}

// track notes that the calls of a resource of pkg start, counting it
// unless it is a provider resource; calling the result says they ended.
func (u *untrusted) track(pkg string, provider bool) (end func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.counts == nil {
		u.counts = map[string]int{}
	}
	if !provider {
		u.counts[pkg]++
	} else if _, ok := u.counts[pkg]; !ok {
		u.counts[pkg] = 0
	}
	if u.inFlight == 0 {
		u.since = time.Now()
	}
	u.inFlight++
	return func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		if u.inFlight--; u.inFlight == 0 {
			u.busy += time.Since(u.since)
		}
	}
}

// result returns the counts by package and the time their calls took.
func (u *untrusted) result() (map[string]int, time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return maps.Clone(u.counts), u.busy
}
