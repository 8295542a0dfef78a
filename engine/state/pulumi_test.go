package state_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/state"
)

const pulumiPassphrase = "correct horse battery staple"

// pulumiExport reads testdata/pulumi-export.json, a deployment as
// `pulumi stack export` prints it, with its passphrase salt and ciphertexts
// made here by the Pulumi SDK's passphrase crypter.
func pulumiExport(t *testing.T) (*state.UntypedDeployment, config.Crypter, string) {
	t.Helper()
	rawSalt := []byte("8bytes!!")
	crypter := config.NewSymmetricCrypterFromPassphrase(pulumiPassphrase, rawSalt)
	encrypt := func(plaintext string) string {
		ciphertext, err := crypter.EncryptValue(context.Background(), plaintext)
		if err != nil {
			t.Fatal(err)
		}
		return ciphertext
	}
	salt := "v1:" + base64.StdEncoding.EncodeToString(rawSalt) + ":" + encrypt("pulumi")
	template, err := os.ReadFile(filepath.Join("testdata", "pulumi-export.json"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer(
		"{{SALT}}", salt,
		// A secret's ciphertext seals the JSON text of its value.
		"{{SECRET_PASSWORD}}", encrypt(`"Xy7!pw"`),
		"{{SECRET_DB}}", encrypt(`"db-hunter2"`),
	).Replace(string(template))
	var u state.UntypedDeployment
	if err := json.Unmarshal([]byte(text), &u); err != nil {
		t.Fatal(err)
	}
	return &u, crypter, salt
}

func TestImportPulumiExport(t *testing.T) {
	u, key, salt := pulumiExport(t)
	sm, err := secrets.NewPassphraseManager(pulumiPassphrase, salt)
	if err != nil {
		t.Fatal(err)
	}
	d, err := state.ParseUntypedDeployment(u)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := state.NewDecoder(sm).Deployment(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.VerifyIntegrity(); err != nil {
		t.Fatalf("the imported snapshot is invalid: %v", err)
	}
	if got := len(snap.Resources); got != 5 {
		t.Fatalf("%d resources, want 5", got)
	}
	root := snap.Root()
	if got, want := root.Outputs["adminPassword"], resource.MakeSecret(resource.String("Xy7!pw")); !got.Equal(want) || !got.IsSecret() {
		t.Errorf("stack output adminPassword = %v, want the secret \"Xy7!pw\"", got.Unsecret())
	}
	fn := snap.Find("urn:pulumi:dev::website::aws:lambda/function:Function::api")
	env := fn.Inputs["environment"].ObjectValue()["variables"].ObjectValue()["DB_PASSWORD"]
	if !env.IsSecret() || env.SecretElement().StringValue() != "db-hunter2" {
		t.Errorf("DB_PASSWORD = %v, want the secret \"db-hunter2\"", env.Unsecret())
	}
	if !fn.Outputs["lastModified"].IsUnknown() {
		t.Errorf("lastModified = %v, want unknown", fn.Outputs["lastModified"])
	}
	if code := fn.Inputs["code"]; !code.IsArchive() || code.ArchiveValue().Assets["index.js"].(*resource.Asset).Text == "" {
		t.Errorf("code = %v, want an archive holding index.js", code)
	}
	obj := snap.Find("urn:pulumi:dev::website::aws:s3/bucketObject:BucketObject::index.html")
	if ref := obj.Inputs["bucket"]; !ref.IsRef() || ref.RefValue().ID.StringValue() != "site-4f2a1c9" {
		t.Errorf("bucket = %v, want a reference to the bucket", ref)
	}
	if src := obj.Inputs["source"]; !src.IsAsset() || src.AssetValue().Path != "./www/index.html" {
		t.Errorf("source = %v, want the file asset", src)
	}
	bucket := snap.Find("urn:pulumi:dev::website::aws:s3/bucketV2:BucketV2::site")
	if !bucket.Protect || bucket.CustomTimeouts.Create != 600 || bucket.IgnoreChanges[0] != "tags" || bucket.Created == nil {
		t.Errorf("bucket options lost: %+v", bucket)
	}
	if ops := snap.PendingOperations; len(ops) != 1 || ops[0].Type != resource.OpCreating {
		t.Errorf("pending operations = %v, want one create", ops)
	}

	// Cairn's export of it is what Pulumi reads.
	out, err := state.NewEncoder(state.EncodeOptions{Secrets: sm}).UntypedDeployment(snap)
	if err != nil {
		t.Fatal(err)
	}
	checkPulumiReadable(t, out, key, salt)
	back, err := state.ParseUntypedDeployment(out)
	if err != nil {
		t.Fatal(err)
	}
	again, err := state.NewDecoder(sm).Deployment(back)
	if err != nil {
		t.Fatal(err)
	}
	if diff := diffSnapshots(again, snap); diff != "" {
		t.Errorf("export → import changed the snapshot: %s", diff)
	}
}

// pulumiResourceKeys are the JSON names of Pulumi's ResourceV3.
var pulumiResourceKeys = strings.Fields(`urn custom delete id type inputs outputs parent protect taint external
	dependencies initErrors provider propertyDependencies pendingReplacement additionalSecretOutputs aliases
	customTimeouts importID retainOnDelete deletedWith replaceWith created modified sourcePosition stackTrace
	ignoreChanges hideDiff replaceOnChanges replacementTrigger refreshBeforeUpdate viewOf resourceHooks
	extensionRef snippetID`)

// checkPulumiReadable checks an export against what Pulumi's import
// needs: a version it reads, a manifest whose magic is the SHA-256 of its
// version, only Pulumi's resource fields, and secrets Pulumi's
// passphrase crypter opens to JSON text.
func checkPulumiReadable(t *testing.T, u *state.UntypedDeployment, crypter config.Crypter, salt string) {
	t.Helper()
	if u.Version != 3 || u.Features != nil {
		t.Errorf("version %d with features %v, want 3 and none", u.Version, u.Features)
	}
	var d struct {
		Manifest struct{ Time, Magic, Version string }
		Secrets  struct {
			Type  string
			State struct{ Salt string }
		} `json:"secrets_providers"`
		Resources         []map[string]any
		PendingOperations []struct{ Resource map[string]any } `json:"pending_operations"`
	}
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(d.Manifest.Version))
	if d.Manifest.Magic != hex.EncodeToString(sum[:]) || d.Manifest.Time == "" {
		t.Errorf("manifest %+v: magic is not sha256(version)", d.Manifest)
	}
	if d.Secrets.Type != "passphrase" || d.Secrets.State.Salt != salt {
		t.Errorf("secrets_providers = %+v, want passphrase with the stack's salt", d.Secrets)
	}
	known := map[string]bool{}
	for _, k := range pulumiResourceKeys {
		known[k] = true
	}
	resources := d.Resources
	for _, op := range d.PendingOperations {
		resources = append(resources, op.Resource)
	}
	secretsSeen := 0
	for _, r := range resources {
		for k := range r {
			if !known[k] {
				t.Errorf("resource %v has field %q, which Pulumi does not know", r["urn"], k)
			}
		}
		walkSecrets(r, func(ciphertext string) {
			secretsSeen++
			plain, err := crypter.DecryptValue(context.Background(), ciphertext)
			if err != nil || !json.Valid([]byte(plain)) {
				t.Errorf("Pulumi's passphrase crypter cannot open %q: %q, %v", ciphertext, plain, err)
			}
		})
	}
	if secretsSeen != 2 {
		t.Errorf("%d ciphertexts in the export, want 2", secretsSeen)
	}
}

func walkSecrets(x any, f func(ciphertext string)) {
	switch x := x.(type) {
	case map[string]any:
		if x[resource.SigKey] == resource.SecretSig {
			f(x["ciphertext"].(string))
			return
		}
		for _, v := range x {
			walkSecrets(v, f)
		}
	case []any:
		for _, v := range x {
			walkSecrets(v, f)
		}
	}
}
