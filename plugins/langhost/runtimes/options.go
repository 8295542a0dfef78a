package runtimes

import "fmt"

// option sets *to from the runtime option name when it is given, failing
// when it is not a T.
func option[T any](opts map[string]any, name string, to *T) error {
	v, ok := opts[name]
	if !ok || v == nil {
		return nil
	}
	t, ok := v.(T)
	if !ok {
		return fmt.Errorf("runtime option %s is %v; it must be a %T", name, v, *to)
	}
	*to = t
	return nil
}
