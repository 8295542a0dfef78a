// Command cairn is the Cairn command-line interface.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "cairn: not yet: the command-line interface is under construction")
	os.Exit(1)
}
