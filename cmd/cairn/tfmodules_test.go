package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// tfModulesCmd serves the folders of DIR as Terraform modules over HTTPS
// on 127.0.0.1, for the rest of the scenario: "tfmodules DIR". GET
// /archives/PATH.tar.gz is the folder DIR/PATH packed; a module registry
// (service discovery, modules.v1) serves DIR/registry/NAMESPACE/NAME/
// SYSTEM/VERSION as that module's version, its download answering with an
// X-Terraform-Get header naming the archive. Folders are packed when
// asked for, so files may still change. It sets TFMODULES to the
// server's host:port, writes its certificate to modules-ca.pem and
// appends the path of each request to modules.log.
func tfModulesCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tfmodules DIR")
	}
	dir := ts.MkAbs(args[0])
	var mu sync.Mutex
	logPath := ts.MkAbs("modules.log")
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, r.URL.Path)
			f.Close()
		}
		mu.Unlock()
		p := r.URL.Path
		parts := strings.Split(strings.Trim(p, "/"), "/")
		switch {
		case p == "/.well-known/terraform.json":
			w.Header().Set("Content-Type", "application/json") // as OpenTofu's discovery requires
			json.NewEncoder(w).Encode(map[string]string{"modules.v1": "/v1/modules/"})
		case strings.HasPrefix(p, "/archives/") && strings.HasSuffix(p, ".tar.gz"):
			folder := filepath.Join(dir, filepath.FromSlash(path.Clean(strings.TrimSuffix(strings.TrimPrefix(p, "/archives/"), ".tar.gz"))))
			data, err := tarGzFolder(folder)
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Write(data)
		case len(parts) == 6 && parts[0] == "v1" && parts[5] == "versions":
			entries, err := os.ReadDir(filepath.Join(dir, "registry", parts[2], parts[3], parts[4]))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			var versions []map[string]string
			for _, e := range entries {
				versions = append(versions, map[string]string{"version": e.Name()})
			}
			json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": versions}}})
		case len(parts) == 7 && parts[0] == "v1" && parts[6] == "download":
			w.Header().Set("X-Terraform-Get", "/archives/registry/"+strings.Join(parts[2:6], "/")+".tar.gz")
			w.WriteHeader(http.StatusNoContent)
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	ts.Defer(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	ts.Check(os.WriteFile(ts.MkAbs("modules-ca.pem"), ca, 0o644))
	ts.Setenv("TFMODULES", srv.Listener.Addr().String())
}

// tarGzFolder packs the files of a folder as a .tar.gz archive.
func tarGzFolder(dir string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	err = gz.Close()
	return buf.Bytes(), err
}

// gitRepoCmd makes a folder of the scenario a git repository whose one
// commit, tagged v1, holds its files: "gitrepo DIR". Modules are then
// called from it as git::file://$WORK/DIR?ref=v1.
func gitRepoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gitrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	for _, a := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "v1"}, {"tag", "v1"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=Cairn", "-c", "user.email=cairn@example.com", "-c", "init.defaultBranch=main"}, a...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			ts.Fatalf("git %s in %s: %v\n%s", strings.Join(a, " "), args[0], err, out)
		}
	}
}
