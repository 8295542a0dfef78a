package cairntest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	"github.com/cairn-iac/cairn/cairntest"
)

// A project's scenarios run outside go test with a Runner, as `cairn test`
// runs them. Here the project is a YAML program with one output, and its
// one scenario applies it and checks the output.
func ExampleRunner_Run() {
	dir, err := os.MkdirTemp("", "cairntest-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// The scenarios run a cairn binary: build this repository's.
	cairn := filepath.Join(dir, "cairn")
	if out, err := exec.Command("go", "build", "-o", cairn, "../cmd/cairn").CombinedOutput(); err != nil {
		fmt.Println(string(out))
		return
	}
	project := filepath.Join(dir, "greeting")
	write := func(name, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(project, name)), 0o755)
		os.WriteFile(filepath.Join(project, name), []byte(text), 0o644)
	}
	write("Pulumi.yaml", "name: greeting\nruntime: yaml\noutputs:\n  message: hello, ${pulumi.stack}\n")
	write("tests/message.txtar", "exec cairn up --yes\noutputs-match message '^hello, test$'\n")

	sum, err := cairntest.Runner{Out: os.Stdout, Parallel: 1}.Run(cairntest.Options{
		Project: project, Cairn: cairn, Run: regexp.MustCompile("message"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Passed, "passed")
	// Output:
	// PASS
	// 1 passed, 0 failed
	// 1 passed
}
