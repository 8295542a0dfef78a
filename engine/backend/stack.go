package backend

import (
	"fmt"
	"regexp"
	"time"
)

// StackRef names a stack: its project and its name.
type StackRef struct {
	Project string
	Name    string
}

func (r StackRef) String() string { return r.Project + "/" + r.Name }

// namePattern is what project and stack names may hold.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Validate checks that the project and stack names are usable: letters,
// digits, '_', '.' and '-', and neither "." nor "..".
func (r StackRef) Validate() error {
	for _, n := range []struct{ what, name string }{{"project", r.Project}, {"stack", r.Name}} {
		if !namePattern.MatchString(n.name) || n.name == "." || n.name == ".." {
			return fmt.Errorf("invalid %s name %q: use letters, digits, '_', '.' and '-'", n.what, n.name)
		}
	}
	return nil
}

// StackSummary describes a stack in a listing.
type StackSummary struct {
	Ref StackRef
	// LastUpdate is when the stack's state was last written; zero if never.
	LastUpdate time.Time
	// Resources counts the stack's resources (as of its last written state).
	Resources int
	// Lock says who holds the stack's lock, or is nil.
	Lock *LockInfo
}
