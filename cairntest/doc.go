// Package cairntest runs testscript scenarios against a Cairn project: each
// scenario (a .txtar file, github.com/rogpeppe/go-internal/testscript) runs
// in its own work folder holding a copy of the project and the files the
// scenario adds, with its own CAIRN_HOME, local backend and passphrase, and a
// stack already created and selected. `cairn` runs the Cairn binary, and
// three commands inspect the stack:
//
//	outputs-match KEY REGEXP   the stack output KEY (secrets revealed) matches
//	changes OP=N...            the change summary of the last `cairn preview --json`
//	resource-count N           the stack's state holds N resources
//
// `cairn test` runs the scenarios of a project's tests/ folder with Runner,
// printing as go test does. A team that tests in Go runs the same scenarios
// from a Go test, with a cairn binary on PATH:
//
//	func TestStack(t *testing.T) {
//		cairntest.Run(t, cairntest.Options{Project: ".."})
//	}
package cairntest
