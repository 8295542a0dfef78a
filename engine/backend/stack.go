package backend

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Organization is the organization of every stack of a local or
// PostgreSQL backend, as on Pulumi's own DIY backends: a program reads it
// as pulumi.organization, and a stack's qualified name is
// "organization/<project>/<stack>".
const Organization = "organization"

// StackRef names a stack: its project and its name.
type StackRef struct {
	Project string
	Name    string
}

func (r StackRef) String() string { return r.Project + "/" + r.Name }

// Qualified is the stack's name in its checkpoint:
// "organization/<project>/<stack>".
func (r StackRef) Qualified() string { return Organization + "/" + r.Project + "/" + r.Name }

// namePattern is what project and stack names may hold, as in Pulumi.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// maxNameLength is the longest project or stack name Pulumi accepts.
const maxNameLength = 100

// Validate checks that the project and stack names follow Pulumi's rules:
// letters, digits, '_', '.' and '-', at most 100 characters, and neither
// "." nor "..".
func (r StackRef) Validate() error {
	for _, n := range []struct{ what, name string }{{"project", r.Project}, {"stack", r.Name}} {
		if err := validName(n.what, n.name); err != nil {
			return err
		}
	}
	return nil
}

func validName(what, name string) error {
	if !namePattern.MatchString(name) || name == "." || name == ".." || len(name) > maxNameLength {
		return fmt.Errorf("invalid %s name %q: a %s name holds letters, digits, '_', '.' and '-' (at most %d characters)",
			what, name, what, maxNameLength)
	}
	return nil
}

// ParseStackRef reads a stack of project as named on the command line:
// "dev", or Pulumi's qualified "org/project/dev", whose project must be
// project. Every command that takes a stack name reads it here.
func ParseStackRef(project, name string) (StackRef, error) {
	ref := StackRef{Project: project, Name: name}
	if parts := strings.Split(name, "/"); len(parts) == 3 {
		org, proj, stack := parts[0], parts[1], parts[2]
		if err := validName("organization", org); err != nil {
			return StackRef{}, fmt.Errorf("stack %q: %w", name, err)
		}
		if proj != project {
			return StackRef{}, fmt.Errorf("stack %q belongs to project %q, not to this project %q; "+
				"name a stack of this project (%s/%s/%s or just %s)", name, proj, project, org, project, stack, stack)
		}
		ref.Name = stack
	} else if len(parts) > 1 {
		return StackRef{}, fmt.Errorf("invalid stack name %q: use a name (letters, digits, '_', '.' and '-') or org/project/stack", name)
	}
	return ref, ref.Validate()
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
	// Err says why the stack's state cannot be read; LastUpdate and
	// Resources are then zero.
	Err error
}
