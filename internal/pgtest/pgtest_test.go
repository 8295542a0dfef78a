package pgtest

import (
	"context"
	"os"
	"testing"
	"time"
)

// narrowPATH is a PATH without the sbin folders, as some shells and CI
// runners give a test even when it runs as root.
const narrowPATH = "/usr/local/go/bin:/usr/bin:/bin"

// TestLookPathSystemDirs finds a program in the system's folders when
// PATH leaves them out, and says where it looked when it is nowhere.
func TestLookPathSystemDirs(t *testing.T) {
	if _, err := os.Stat("/usr/sbin/runuser"); err != nil {
		t.Skip("SKIPPED: runuser is not in /usr/sbin")
	}
	t.Setenv("PATH", narrowPATH)
	if got, err := lookPath("runuser"); err != nil || got != "/usr/sbin/runuser" {
		t.Errorf("lookPath(runuser) = %q, %v; want /usr/sbin/runuser", got, err)
	}
	if _, err := lookPath("cairn-no-such-program"); err == nil {
		t.Error("lookPath found a program that does not exist")
	}
}

// TestStartNarrowPATH starts a server, as root through runuser, with a
// PATH that has no sbin folder, and connects to a database of it.
func TestStartNarrowPATH(t *testing.T) {
	t.Setenv("PATH", narrowPATH)
	srv := New(t)
	url := srv.Database(t, t.Name())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Exec(ctx, url, "CREATE TABLE t (x int)"); err != nil {
		t.Fatal(err)
	}
}
