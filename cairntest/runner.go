package cairntest

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Runner runs scenarios outside go test and reports as go test does: a
// "--- FAIL: name (time)" line and the scenario's log for each failure (for
// every scenario with Verbose), then PASS or FAIL, then "N passed, N
// failed".
type Runner struct {
	Out io.Writer
	// Verbose reports every scenario with its whole log.
	Verbose bool
	// Parallel is how many scenarios run at once; default GOMAXPROCS.
	Parallel int
}

// Summary counts the scenarios of a run by outcome.
type Summary struct {
	Passed, Failed, Skipped int
}

// Run runs the scenarios the options select and reports them, in the order
// of their files, each as soon as it and those before it have finished.
func (r Runner) Run(opts Options) (Summary, error) {
	p, err := Params(opts)
	if err != nil {
		return Summary{}, err
	}
	n := r.Parallel
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	top := &topT{verbose: r.Verbose, slots: make(chan struct{}, n)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		testscript.RunT(top, p)
	}()
	<-done
	if top.err != nil {
		return Summary{}, top.err
	}
	var sum Summary
	for _, s := range top.scenarios {
		<-s.done
		switch {
		case s.failed:
			sum.Failed++
		case s.skipped:
			sum.Skipped++
		default:
			sum.Passed++
		}
		if s.failed || r.Verbose {
			fmt.Fprintf(r.Out, "--- %s: %s (%.2fs)\n", s.outcome(), s.name, s.elapsed.Seconds())
			fmt.Fprint(r.Out, indent(s.log.String()))
		}
	}
	if sum.Failed > 0 {
		fmt.Fprintln(r.Out, "FAIL")
	} else {
		fmt.Fprintln(r.Out, "PASS")
	}
	fmt.Fprintf(r.Out, "%d passed, %d failed", sum.Passed, sum.Failed)
	if sum.Skipped > 0 {
		fmt.Fprintf(r.Out, ", %d skipped", sum.Skipped)
	}
	fmt.Fprintln(r.Out)
	return sum, nil
}

// indent indents each line of a log by four spaces, as go test does.
func indent(log string) string {
	log = strings.TrimRight(log, "\n")
	if log == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(log, "\n", "\n    ") + "\n"
}

// topT is the testscript.T that testscript.RunT starts the scenarios from:
// each runs in a goroutine of its own, at most len(slots) at once.
type topT struct {
	verbose   bool
	slots     chan struct{}
	scenarios []*scenarioT
	err       error
}

func (t *topT) Run(name string, f func(testscript.T)) {
	s := &scenarioT{top: t, name: name, done: make(chan struct{})}
	t.scenarios = append(t.scenarios, s)
	go s.run(f)
}

func (t *topT) Fatal(args ...any) {
	t.err = fmt.Errorf("%s", strings.TrimSpace(fmt.Sprintln(args...)))
	runtime.Goexit()
}

func (t *topT) FailNow()        { t.Fatal("cannot run the scenarios") }
func (t *topT) Skip(...any)     {}
func (t *topT) Parallel()       {}
func (t *topT) Log(args ...any) {}
func (t *topT) Verbose() bool   { return t.verbose }

// scenarioT is the testscript.T of one scenario.
type scenarioT struct {
	top     *topT
	name    string
	done    chan struct{}
	slot    bool
	start   time.Time
	elapsed time.Duration
	log     strings.Builder
	failed  bool
	skipped bool
}

// run runs the scenario; FailNow and Skip end it with runtime.Goexit, as
// the testing package does.
func (s *scenarioT) run(f func(testscript.T)) {
	defer close(s.done)
	defer func() {
		s.elapsed = time.Since(s.start)
		if s.slot {
			<-s.top.slots
		}
	}()
	s.start = time.Now()
	f(s)
}

func (s *scenarioT) outcome() string {
	switch {
	case s.failed:
		return "FAIL"
	case s.skipped:
		return "SKIP"
	}
	return "PASS"
}

// Parallel waits for a free slot.
func (s *scenarioT) Parallel() {
	s.top.slots <- struct{}{}
	s.slot = true
	s.start = time.Now()
}

func (s *scenarioT) Log(args ...any) {
	fmt.Fprintln(&s.log, args...)
}

func (s *scenarioT) Fatal(args ...any) {
	s.Log(args...)
	s.FailNow()
}

func (s *scenarioT) FailNow() {
	s.failed = true
	runtime.Goexit()
}

func (s *scenarioT) Skip(args ...any) {
	s.Log(args...)
	s.skipped = true
	runtime.Goexit()
}

func (s *scenarioT) Run(string, func(testscript.T)) {
	s.Fatal("cairntest: scenarios have no subtests")
}

func (s *scenarioT) Verbose() bool { return s.top.verbose }
