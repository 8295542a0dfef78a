package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/rogpeppe/go-internal/testscript"
)

// platform is the os_arch Terraform providers are packaged for.
const platform = runtime.GOOS + "_" + runtime.GOARCH

// tfProviderCmd puts a Terraform provider into a filesystem mirror:
// "tfprovider [-zip] [NS/]NAME[@VERSION] DIR". NAME is a test provider of
// plugins/tfplugin/testdata, built and put in as NS/TYPE (TYPE is its
// module name less terraform-provider-; NS is cairn unless given), or a terraform-provider-TYPE
// program on PATH, copied in as hashicorp/TYPE. It goes in at VERSION
// (default 1.0.0) under registry.opentofu.org, unpacked
// (HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/) or, with -zip, packed
// (HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip).
func tfProviderCmd(ts *testscript.TestScript, neg bool, args []string) {
	packed := len(args) > 0 && args[0] == "-zip"
	if packed {
		args = args[1:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tfprovider [-zip] [NS/]NAME[@VERSION] DIR")
	}
	name, version, ok := strings.Cut(args[0], "@")
	if !ok {
		version = "1.0.0"
	}
	ns, name, named := strings.Cut(name, "/")
	if !named {
		ns, name = "", ns
	}
	testNS, typ, exe := testProvider(ts, name)
	if ns == "" {
		ns = testNS
	}
	typeDir := filepath.Join(ts.MkAbs(args[1]), "registry.opentofu.org", ns, typ)
	if packed {
		ts.Check(os.MkdirAll(typeDir, 0o755))
		ts.Check(os.WriteFile(filepath.Join(typeDir, fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, platform)), providerZip(ts, exe, typ, version), 0o644))
		return
	}
	dir := filepath.Join(typeDir, version, platform)
	ts.Check(os.MkdirAll(dir, 0o755))
	data, err := os.ReadFile(exe)
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(dir, "terraform-provider-"+typ), data, 0o755))
}

// testProvider returns the namespace, type and executable of the
// provider NAME stands for (see tfProviderCmd), building a test provider
// into the scenario's folder first.
func testProvider(ts *testscript.TestScript, name string) (ns, typ, exe string) {
	if typ, ok := strings.CutPrefix(name, "terraform-provider-"); ok {
		exe, err := exec.LookPath(name)
		if err != nil {
			ts.Fatalf("%s is not on PATH", name)
		}
		return "hashicorp", typ, exe
	}
	typ, exe, err := buildTestProvider(name, ts.MkAbs(filepath.Join(".tfbuild", name)))
	ts.Check(err)
	return "cairn", typ, exe
}

// buildTestProvider builds the test provider NAME of
// plugins/tfplugin/testdata into dir, and returns its type (its module
// name less terraform-provider-) and executable.
func buildTestProvider(name, dir string) (typ, exe string, err error) {
	src, err := filepath.Abs(filepath.Join("..", "..", "plugins", "tfplugin", "testdata", name))
	if err != nil {
		return "", "", err
	}
	mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return "", "", err
	}
	first, _, _ := strings.Cut(string(mod), "\n")
	typ = strings.TrimPrefix(filepath.Base(strings.TrimPrefix(first, "module ")), "terraform-provider-")
	exe = filepath.Join(dir, "terraform-provider-"+typ)
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("building %s: %v\n%s", name, err, out)
	}
	return typ, exe, nil
}

// providerZip packages a provider's executable as its releases do.
func providerZip(ts *testscript.TestScript, exe, typ, version string) []byte {
	data, err := os.ReadFile(exe)
	ts.Check(err)
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: fmt.Sprintf("terraform-provider-%s_v%s", typ, version), Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := z.CreateHeader(h)
	ts.Check(err)
	_, err = w.Write(data)
	ts.Check(err)
	ts.Check(z.Close())
	return buf.Bytes()
}

// tfRegistryCmd serves a test provider from a provider registry over
// HTTPS on 127.0.0.1, for the rest of the scenario: "tfregistry NAME"
// publishes NAME (a provider of plugins/tfplugin/testdata) as cairn/TYPE
// 1.0.0 for this platform, with service discovery, a SHA256SUMS file and
// its detached OpenPGP signature by a key the registry lists. It sets
// TFREGISTRY to the registry's host:port, writes the certificate of its
// TLS server (its own certificate authority) to registry-ca.pem, and
// appends the path of each request it gets to registry.log.
func tfRegistryCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tfregistry NAME")
	}
	const version = "1.0.0"
	_, typ, exe := testProvider(ts, args[0])
	pkg := providerZip(ts, exe, typ, version)
	file := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, platform)
	sum := sha256.Sum256(pkg)
	sums := fmt.Sprintf("%s  %s\n", hex.EncodeToString(sum[:]), file)
	key, err := openpgp.NewEntity("Cairn test registry", "", "registry@example.com", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	ts.Check(err)
	var sig, public bytes.Buffer
	ts.Check(openpgp.DetachSign(&sig, key, strings.NewReader(sums), nil))
	a, err := armor.Encode(&public, openpgp.PublicKeyType, nil)
	ts.Check(err)
	ts.Check(key.Serialize(a))
	ts.Check(a.Close())

	goos, goarch, _ := strings.Cut(platform, "_")
	base := "/v1/providers/cairn/" + typ + "/"
	files := map[string][]byte{"/files/" + file: pkg, "/files/SHA256SUMS": []byte(sums), "/files/SHA256SUMS.sig": sig.Bytes()}
	answers := map[string]any{
		"/.well-known/terraform.json": map[string]string{"providers.v1": "/v1/providers/"},
		base + "versions": map[string]any{"versions": []any{map[string]any{
			"version": version, "protocols": []string{"5.0", "6.0"}, "platforms": []any{map[string]string{"os": goos, "arch": goarch}},
		}}},
		base + version + "/download/" + goos + "/" + goarch: map[string]any{
			"protocols": []string{"6.0"}, "os": goos, "arch": goarch, "filename": file,
			"download_url": "/files/" + file, "shasums_url": "/files/SHA256SUMS", "shasums_signature_url": "/files/SHA256SUMS.sig",
			"shasum": hex.EncodeToString(sum[:]),
			"signing_keys": map[string]any{"gpg_public_keys": []any{map[string]string{
				"key_id": key.PrimaryKey.KeyIdString(), "ascii_armor": public.String(),
			}}},
		},
	}
	var mu sync.Mutex
	logPath := ts.MkAbs("registry.log")
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, r.URL.Path)
			f.Close()
		}
		mu.Unlock()
		if data, ok := files[r.URL.Path]; ok {
			w.Write(data)
			return
		}
		if v, ok := answers[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(v)
			return
		}
		http.NotFound(w, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // clients that refuse its certificate are expected
	srv.StartTLS()
	ts.Defer(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	ts.Check(os.WriteFile(ts.MkAbs("registry-ca.pem"), ca, 0o644))
	ts.Setenv("TFREGISTRY", srv.Listener.Addr().String())
}
