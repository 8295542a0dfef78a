// Package objtest runs real object storage servers for tests, on
// 127.0.0.1 with free ports, each over a temporary folder: VersityGW for
// S3, fake-gcs-server for Google Cloud Storage and Azurite for Azure Blob
// Storage (.ci/objstore installs all three). Without a server's program on
// PATH the test skips, saying so loudly, or fails under
// CAIRN_REQUIRE_OBJECT_STORAGE=1 (CI sets it).
//
//	st := objtest.S3(t)      // a server with a new, empty bucket
//	st.Setenv(t)             // its credentials, for this process
//	b, err := bucket.Open(ctx, st.URL, opts)
//	cmd.Env = append(os.Environ(), st.Env...) // or for a child process
//
// StartS3, StartGCS and StartAzure start a server outside a test (for
// benchmarks); Close stops it.
package objtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// RequireEnv names the variable that, set to 1, turns "server not found"
// into a test failure.
const RequireEnv = "CAIRN_REQUIRE_OBJECT_STORAGE"

// The credentials the servers accept. Azurite's are its well-known
// development account.
const (
	S3AccessKey    = "cairntest"
	S3SecretKey    = "cairntest-secret-key"
	AzureAccount   = "devstoreaccount1"
	AzureAccessKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	// Region is the S3 region VersityGW serves.
	Region = "us-east-1"
)

// Store is a running server and one bucket (an Azure container) on it.
type Store struct {
	*Server
	Bucket string
	// URL is the bucket's URL as Cairn and `pulumi login` take it:
	// s3://BUCKET?endpoint=…&region=…&use_path_style=true, gs://BUCKET,
	// azblob://BUCKET?domain=…&protocol=http&localemu=true.
	URL string
}

// Server is a running object storage server.
type Server struct {
	// Kind is the URL scheme of its buckets: s3, gs or azblob.
	Kind string
	// Endpoint is its base URL, http://127.0.0.1:PORT.
	Endpoint string
	// Env holds the variables (NAME=value) a client needs to reach it:
	// credentials and endpoint, as each cloud's SDK reads them.
	Env []string

	program string
	args    []string
	env     []string
	dir     string
	port    int

	mu  sync.Mutex
	cmd *exec.Cmd
}

// S3 starts VersityGW and makes a bucket on it.
func S3(t testing.TB) *Store { return forTest(t, "versitygw", StartS3) }

// GCS starts fake-gcs-server and makes a bucket on it.
func GCS(t testing.TB) *Store { return forTest(t, "fake-gcs-server", StartGCS) }

// Azure starts Azurite's blob service and makes a container on it.
func Azure(t testing.TB) *Store { return forTest(t, "azurite-blob", StartAzure) }

// forTest starts a server for the test, stopped when it ends, and makes a
// bucket on it; it skips the test, or fails it under RequireEnv, when the
// server's program is not on PATH.
func forTest(t testing.TB, program string, start func() (*Server, error)) *Store {
	t.Helper()
	s, err := start()
	if errors.Is(err, exec.ErrNotFound) {
		msg := fmt.Sprintf("SKIPPED: %s is not on PATH (install the object storage servers with .ci/objstore and put the folder it prints on PATH)", program)
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1 but %s", RequireEnv, msg)
		}
		t.Skip(msg)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	st, err := s.NewBucket()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// StartS3 starts VersityGW (versitygw on PATH) over a posix folder; Close
// stops it.
func StartS3() (*Server, error) {
	s, err := start("s3", "versitygw", func(dir string, port int) ([]string, []string) {
		return []string{"--port", fmt.Sprintf("127.0.0.1:%d", port), "--region", Region, "posix", "--sidecar", filepath.Join(dir, "meta"), filepath.Join(dir, "data")},
			[]string{"ROOT_ACCESS_KEY_ID=" + S3AccessKey, "ROOT_SECRET_ACCESS_KEY=" + S3SecretKey}
	}, "data", "meta")
	if err == nil {
		s.Env = []string{"AWS_ACCESS_KEY_ID=" + S3AccessKey, "AWS_SECRET_ACCESS_KEY=" + S3SecretKey, "AWS_REGION=" + Region,
			"AWS_ENDPOINT_URL_S3=" + s.Endpoint, "AWS_EC2_METADATA_DISABLED=true"}
	}
	return s, err
}

// StartGCS starts fake-gcs-server (on PATH) over a folder; Close stops it.
func StartGCS() (*Server, error) {
	s, err := start("gs", "fake-gcs-server", func(dir string, port int) ([]string, []string) {
		return []string{"-scheme", "http", "-host", "127.0.0.1", "-port", fmt.Sprint(port),
			"-public-host", fmt.Sprintf("127.0.0.1:%d", port), "-backend", "filesystem",
			"-filesystem-root", filepath.Join(dir, "data"), "-log-level", "error"}, nil
	}, "data")
	if err == nil {
		s.Env = []string{"STORAGE_EMULATOR_HOST=" + strings.TrimPrefix(s.Endpoint, "http://")}
	}
	return s, err
}

// StartAzure starts Azurite's blob service (azurite-blob on PATH) over a
// folder; Close stops it.
func StartAzure() (*Server, error) {
	s, err := start("azblob", "azurite-blob", func(dir string, port int) ([]string, []string) {
		return []string{"--blobHost", "127.0.0.1", "--blobPort", fmt.Sprint(port), "--location", filepath.Join(dir, "data"),
			"--silent", "--skipApiVersionCheck", "--loose"}, nil
	}, "data")
	if err == nil {
		s.Env = []string{"AZURE_STORAGE_ACCOUNT=" + AzureAccount, "AZURE_STORAGE_KEY=" + AzureAccessKey,
			"AZURE_STORAGE_DOMAIN=" + strings.TrimPrefix(s.Endpoint, "http://"), "AZURE_STORAGE_PROTOCOL=http",
			"AZURE_STORAGE_IS_LOCAL_EMULATOR=true"}
	}
	return s, err
}

// Setenv sets the server's Env in this process for the test.
func (s *Server) Setenv(t testing.TB) { SetenvWith(s.Env, t.Setenv) }

// SetenvWith sets each variable of env (NAME=value) with set, such as a
// testscript.Env's Setenv.
func SetenvWith(env []string, set func(name, value string)) {
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		set(name, value)
	}
}

// NewBucket makes a new, empty bucket on the server.
func (s *Server) NewBucket() (*Store, error) {
	name := "cairn-" + randomHex()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	st := &Store{Server: s, Bucket: name, URL: s.Kind + "://" + name}
	switch s.Kind {
	case "s3":
		client := s3.New(s3.Options{Region: Region, BaseEndpoint: aws.String(s.Endpoint), UsePathStyle: true,
			Credentials: credentials.NewStaticCredentialsProvider(S3AccessKey, S3SecretKey, "")})
		_, err = client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)})
		st.URL += "?endpoint=" + s.Endpoint + "&region=" + Region + "&use_path_style=true"
	case "gs":
		var resp *http.Response
		resp, err = http.Post(s.Endpoint+"/storage/v1/b?project=cairn", "application/json", strings.NewReader(`{"name":"`+name+`"}`))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("creating the bucket: %s", resp.Status)
			}
		}
	case "azblob":
		var cred *azblob.SharedKeyCredential
		if cred, err = azblob.NewSharedKeyCredential(AzureAccount, AzureAccessKey); err == nil {
			var client *azblob.Client
			if client, err = azblob.NewClientWithSharedKeyCredential(s.Endpoint+"/"+AzureAccount, cred, nil); err == nil {
				_, err = client.CreateContainer(ctx, name, nil)
			}
		}
		// gocloud.dev reads the AZURE_STORAGE_* variables once per
		// process; the URL names this server whatever they said.
		st.URL += "?domain=" + strings.TrimPrefix(s.Endpoint, "http://") + "&protocol=http&localemu=true"
	}
	if err != nil {
		return nil, fmt.Errorf("making bucket %s on %s (%s): %w", name, s.program, s.Endpoint, err)
	}
	return st, nil
}

// start starts program (looked up on PATH; an error wrapping
// exec.ErrNotFound if it is not there) over a new temporary folder with
// the subfolders dirs, on a free port; argsOf gives its arguments and
// environment.
func start(kind, program string, argsOf func(dir string, port int) (args, env []string), dirs ...string) (*Server, error) {
	path, err := exec.LookPath(program)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cairn-"+kind+"-")
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Kind: kind, Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), program: path, dir: dir, port: port}
	s.args, s.env = argsOf(dir, port)
	if err := s.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Folder is where VersityGW keeps the objects of an S3 store as files (a
// key's "/" a folder), for tests that look at them; "" for other stores.
func (st *Store) Folder() string {
	if st.Kind != "s3" {
		return ""
	}
	return filepath.Join(st.dir, "data", st.Bucket)
}

// Close stops the server and removes its folder.
func (s *Server) Close() {
	s.Stop()
	os.RemoveAll(s.dir)
}

// Start starts the server again after Stop, on the same port and folder
// (tests of a server that went away).
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	out := &syncBuffer{}
	cmd := exec.Command(s.program, s.args...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", s.program, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", s.port), time.Second)
		if err == nil {
			conn.Close()
			s.cmd = cmd
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("%s exited before it listened on port %d: %s", s.program, s.port, out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			return fmt.Errorf("%s did not listen on port %d within a minute: %s", s.program, s.port, out.String())
		}
	}
}

// Stop kills the server (its whole process group); its files stay, for
// Start.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	for range 200 { // wait until the port is free again
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", s.port), 100*time.Millisecond)
		if err != nil {
			break
		}
		conn.Close()
		time.Sleep(10 * time.Millisecond)
	}
	s.cmd = nil
}

// syncBuffer is a server's output, written by the goroutines of exec and
// read when it fails to start.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
