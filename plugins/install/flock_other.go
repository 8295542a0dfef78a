//go:build !unix

package install

import "os"

// flock does nothing where flock does not exist: installs still rename
// complete folders into place, but two at once may both download.
func flock(*os.File) error { return nil }
