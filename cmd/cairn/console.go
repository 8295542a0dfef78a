package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/childenv"
	"github.com/cairn-iac/cairn/internal/console"
)

func consoleCommand() *cli.Command {
	return &cli.Command{
		Name:  "console",
		Usage: "browse the backend's stacks, their resources, graphs and history in a web browser",
		UsageText: "cairn console\ncairn console --no-browser\ncairn console --plan plan.json\n" +
			"cairn console --listen 0.0.0.0:8080   # reachable from other machines",
		Description: `Serves a read-only web console from the cairn binary, on 127.0.0.1 at a
free port, prints its address and opens it in the browser ($BROWSER, else
xdg-open), on the page of the current stack (the list of stacks outside a
project), through a page in a file only the user can read, so that the
token stays off the command line. The address carries a
token made for this run: without it the console shows nothing of the stacks.
The console never writes to the backend, needs no passphrase, and shows every
secret as [secret]. Pages follow an operation while it runs. It serves until
interrupted (Ctrl-C).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:0", Usage: "the `ADDRESS` to listen on (host:port; port 0 picks a free one)"},
			&cli.BoolFlag{Name: "no-browser", Usage: "print the address without opening a browser"},
			&cli.StringFlag{Name: "plan", Usage: "show the changes of the plan `FILE` saved for the current stack (cairn preview --save-plan)"},
		},
		Action: consoleRun,
	}
}

func consoleRun(c *cli.Context) error {
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := newSession(c, false)
	if err != nil {
		return err
	}
	current, err := consoleStack(s, c.String("plan") != "")
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.String("listen"))
	if err != nil {
		return fmt.Errorf("--listen %s: %w", c.String("listen"), err)
	}
	defer ln.Close()
	if addr := ln.Addr().(*net.TCPAddr); !addr.IP.IsLoopback() {
		host, _, _ := net.SplitHostPort(c.String("listen"))
		s.warn(fmt.Sprintf("the console listens on %s, which other machines may reach: anyone who has its address, "+
			"token included, can read the stacks (secrets stay masked), over plain HTTP", net.JoinHostPort(host, strconv.Itoa(addr.Port))))
	}
	con, err := console.New(ln, console.Options{Stacks: s.backend, Current: current, PlanFile: c.String("plan")})
	if err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "The console of %s is at\n\n    %s\n\nIt serves until interrupted (Ctrl-C).\n", s.backend.URL(), con.URL())
	if !c.Bool("no-browser") {
		page, remove, err := con.RedirectPage("")
		if err == nil {
			defer remove()
			err = openBrowser(page)
		}
		if err != nil {
			s.warn(fmt.Sprintf("could not open a browser (%v): open the address above", err))
		}
	}
	return con.Serve(ctx)
}

// consoleStack is the stack the console opens on: --stack, or the
// project's selected stack; none outside a project or when no stack is
// selected, unless a plan needs one.
func consoleStack(s *session, needStack bool) (backend.StackRef, error) {
	p, err := workspace.LoadProject(s.cwd)
	switch {
	case errors.Is(err, workspace.ErrNoProject) && !needStack:
		return backend.StackRef{}, nil
	case err != nil:
		return backend.StackRef{}, err
	}
	s.project = p
	named := needStack || global(s.c, "stack") != ""
	ref, err := s.namedRef()
	switch {
	case err != nil && named:
		return backend.StackRef{}, err
	case err != nil: // no stack is selected
		return backend.StackRef{}, nil
	}
	exists, err := s.stackExists(ref)
	switch {
	case err != nil:
		return backend.StackRef{}, err
	case !exists && named:
		return backend.StackRef{}, notFound(ref)
	case !exists:
		return backend.StackRef{}, nil
	}
	return ref, nil
}

// openBrowser opens url in the user's browser, without waiting for it:
// with the command $BROWSER names (the first of its list, "%s" standing
// for the URL, else the URL added at the end), else xdg-open (open on
// macOS).
func openBrowser(url string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	args := []string{name, url}
	first, _, _ := strings.Cut(os.Getenv("BROWSER"), string(os.PathListSeparator))
	if f := strings.Fields(first); len(f) > 0 {
		args = f
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "%s", url)
		}
		if !strings.Contains(first, "%s") {
			args = append(args, url)
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = childenv.Environ()
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
