package console

import (
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
)

// RedirectPage writes, into a new folder under dir ("" for the system's
// temporary folder) that only the user may open (mode 0700), a page
// readable by the user only (0600) that sends the browser to the console's
// URL, token included. Opening the page's file:// URL rather than the
// console's keeps the token off the opener's command line, which every
// local user can read (/proc/PID/cmdline, ps), as Jupyter does. It returns
// the page's URL and a function that removes the folder.
func (c *Console) RedirectPage(dir string) (string, func(), error) {
	folder, err := os.MkdirTemp(dir, "cairn-console-")
	if err != nil {
		return "", nil, fmt.Errorf("making the console's redirect page: %w", err)
	}
	remove := func() { os.RemoveAll(folder) }
	to := html.EscapeString(c.URL())
	page := `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=` + to + `">
<title>Cairn console</title></head>
<body><p>Opening <a href="` + to + `">the Cairn console</a>…</p></body></html>
`
	path := filepath.Join(folder, "open.html")
	if err := os.WriteFile(path, []byte(page), 0o600); err != nil {
		remove()
		return "", nil, fmt.Errorf("making the console's redirect page: %w", err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String(), remove, nil
}
