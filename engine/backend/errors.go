package backend

import (
	"errors"
	"fmt"
)

// ErrStackNotFound is returned for a stack that does not exist.
var ErrStackNotFound = errors.New("no such stack; create it with `cairn stack init`")

// ErrStackExists is returned when creating a stack that exists.
var ErrStackExists = errors.New("the stack already exists; select it with `cairn stack select`")

// StackNotEmptyError is returned when removing a stack that still manages
// resources.
type StackNotEmptyError struct {
	Stack             StackRef
	Resources         int
	PendingOperations int
	// Unfinished is set when an operation on the stack did not finish, so
	// the count may be short.
	Unfinished bool
}

func (e *StackNotEmptyError) Error() string {
	what := fmt.Sprintf("%d resources and %d pending operations", e.Resources, e.PendingOperations)
	if e.Unfinished {
		what = "the journal of an operation that did not finish"
	}
	return fmt.Sprintf("stack %s still has %s; run `cairn destroy` first, "+
		"or remove it with --force, which forgets them (they keep existing in the cloud)", e.Stack, what)
}
