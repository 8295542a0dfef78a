package state_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// b64Manager is Pulumi's test secrets provider "b64": ciphertexts are
// the base64 of the plaintext, so golden files are stable.
type b64Manager struct{}

func (b64Manager) Type() string           { return "b64" }
func (b64Manager) State() json.RawMessage { return nil }
func (b64Manager) Encrypt(p string) (string, error) {
	return base64.StdEncoding.EncodeToString([]byte(p)), nil
}
func (b64Manager) Decrypt(c string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(c)
	return string(b), err
}
func (m b64Manager) DecrypterFor(typ string, _ json.RawMessage) (secrets.Decrypter, error) {
	if typ != "b64" {
		return nil, &secrets.UnsupportedProviderError{Type: typ}
	}
	return m, nil
}

var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func urn(typ, name string) resource.URN { return resource.NewURN("dev", "proj", "", typ, name) }

var (
	stackURN    = urn(resource.RootStackType, "proj-dev")
	providerURN = urn("pulumi:providers:aws", "default_6_0_0")
	providerRef = string(providerURN) + "::prov-id"
	baseURN     = urn("aws:s3/bucket:Bucket", "logs")
	fullURN     = urn("aws:s3/bucket:Bucket", "site")
)

// allValues holds a value of every kind a state can hold.
func allValues() resource.Map {
	pathAsset := &resource.Asset{Path: "index.js", Hash: "1111111111111111111111111111111111111111111111111111111111111111"}
	return resource.Map{
		"null":         resource.Null,
		"bool":         resource.Bool(true),
		"int":          resource.Number(42),
		"float":        resource.Number(3.25),
		"nan":          resource.Number(math.NaN()),
		"inf":          resource.Number(math.Inf(1)),
		"ninf":         resource.Number(math.Inf(-1)),
		"string":       resource.String("héllo <&>"),
		"bytes":        resource.String("\xff\xfeok"),
		"array":        resource.Array(resource.Number(1), resource.String("two"), resource.Null),
		"object":       resource.Object(resource.Map{"k": resource.String("v"), "empty": resource.Object(nil)}),
		"text":         resource.NewAsset(resource.NewTextAsset("hello")),
		"empty":        resource.NewAsset(resource.NewTextAsset("")),
		"path":         resource.NewAsset(pathAsset),
		"uri":          resource.NewAsset(&resource.Asset{URI: "https://example.com/a.txt", Hash: "2222222222222222222222222222222222222222222222222222222222222222"}),
		"archive":      resource.NewArchive(&resource.Archive{Hash: "3333333333333333333333333333333333333333333333333333333333333333", Assets: map[string]any{"a.txt": resource.NewTextAsset("a"), "lib": &resource.Archive{Path: "lib"}, "main.js": pathAsset}}),
		"dirArchive":   resource.NewArchive(&resource.Archive{Path: "./site"}),
		"uriArchive":   resource.NewArchive(&resource.Archive{URI: "https://example.com/a.zip"}),
		"ref":          resource.NewRef(resource.ResourceRef{URN: baseURN, ID: resource.String("logs-id"), PackageVersion: "6.0.0"}),
		"componentRef": resource.NewRef(resource.ResourceRef{URN: stackURN}),
		"unknownRef":   resource.NewRef(resource.ResourceRef{URN: baseURN, ID: resource.Unknown()}),
		"unknown":      resource.Unknown(),
		"secret":       resource.MakeSecret(resource.String("s3cr3t")),
		"secretObject": resource.MakeSecret(resource.Object(resource.Map{
			"user":  resource.String("admin"),
			"inner": resource.MakeSecret(resource.Array(resource.String("deep"), resource.MakeSecret(resource.Number(7)))),
		})),
		"secretBytes": resource.MakeSecret(resource.String("\x80")),
		"secretNaN":   resource.MakeSecret(resource.Number(math.NaN())),
		"inSecretRef": resource.MakeSecret(resource.NewRef(resource.ResourceRef{URN: baseURN, ID: resource.String("logs-id")})),
	}
}

// fullSnapshot uses every field of a resource state and a pending operation.
func fullSnapshot() *snapshot.Snapshot {
	created, modified := fixedTime, fixedTime.Add(time.Hour)
	root := &resource.State{URN: stackURN, Type: resource.RootStackType, Inputs: resource.Map{},
		Outputs: resource.Map{"url": resource.String("https://example.com"), "password": resource.MakeSecret(resource.String("pw"))}}
	prov := &resource.State{URN: providerURN, Type: "pulumi:providers:aws", Custom: true, ID: "prov-id",
		Inputs:  resource.Map{"region": resource.String("eu-west-1"), "token": resource.MakeSecret(resource.String("tok")), "version": resource.String("6.0.0")},
		Outputs: resource.Map{"region": resource.String("eu-west-1"), "token": resource.MakeSecret(resource.String("tok")), "version": resource.String("6.0.0")},
		Created: &created}
	base := &resource.State{URN: baseURN, Type: "aws:s3/bucket:Bucket", Custom: true, ID: "logs-id", Parent: stackURN,
		Provider: providerRef, Inputs: resource.Map{"acl": resource.String("private")}, Outputs: resource.Map{"arn": resource.String("arn:logs")}}
	full := &resource.State{
		URN: fullURN, Type: "aws:s3/bucket:Bucket", Custom: true, ID: "site-id",
		Inputs: allValues(), Outputs: allValues(),
		Parent: stackURN, Protect: true, Taint: true,
		Dependencies:            []resource.URN{baseURN},
		PropertyDependencies:    map[string][]resource.URN{"ref": {baseURN}, "string": {}},
		InitErrors:              []string{"timed out waiting for the bucket"},
		Provider:                providerRef,
		AdditionalSecretOutputs: []string{"string"},
		CustomTimeouts:          resource.CustomTimeouts{Create: 60, Update: 1.5, Delete: 120, Read: 5},
		ImportID:                "site-bucket",
		RetainOnDelete:          true,
		DeletedWith:             baseURN,
		ReplaceWith:             []resource.URN{baseURN},
		ReplacementTrigger:      resource.MakeSecret(resource.String("v2")),
		IgnoreChanges:           []string{"tags", "object.k"},
		ReplaceOnChanges:        []string{"acl"},
		HideDiff:                []string{"array[1]", `object["with.dot"]`},
		RefreshBeforeUpdate:     true,
		SourcePosition:          "project:///index.ts#12,3",
		Created:                 &created,
		Modified:                &modified,
	}
	old := base.Copy()
	old.ID, old.Delete = "logs-old-id", true
	read := &resource.State{URN: urn("aws:ec2/vpc:Vpc", "default"), Type: "aws:ec2/vpc:Vpc", Custom: true, ID: "vpc-1",
		External: true, Parent: stackURN, Provider: providerRef, Inputs: resource.Map{}, Outputs: resource.Map{"cidr": resource.String("10.0.0.0/16")}}
	replaced := &resource.State{URN: urn("aws:s3/bucket:Bucket", "dbr"), Type: "aws:s3/bucket:Bucket", Custom: true, ID: "dbr-id",
		PendingReplacement: true, Parent: stackURN, Provider: providerRef, Inputs: resource.Map{}, Outputs: resource.Map{}}
	creating := &resource.State{URN: urn("aws:s3/bucket:Bucket", "new"), Type: "aws:s3/bucket:Bucket", Custom: true,
		Parent: stackURN, Provider: providerRef, Inputs: resource.Map{"acl": resource.MakeSecret(resource.String("public"))}, Outputs: resource.Map{}}
	return &snapshot.Snapshot{
		Resources: []*resource.State{root, prov, base, full, old, read, replaced},
		PendingOperations: []resource.Operation{
			{Resource: creating, Type: resource.OpCreating},
			{Resource: base, Type: resource.OpUpdating},
		},
	}
}

// diffSnapshots describes how two snapshots differ, or returns "".
func diffSnapshots(got, want *snapshot.Snapshot) string {
	if len(got.Resources) != len(want.Resources) {
		return fmt.Sprintf("%d resources, want %d", len(got.Resources), len(want.Resources))
	}
	for i := range got.Resources {
		if d := diffStates(got.Resources[i], want.Resources[i]); d != "" {
			return fmt.Sprintf("resource #%d: %s", i, d)
		}
	}
	if len(got.PendingOperations) != len(want.PendingOperations) {
		return fmt.Sprintf("%d pending operations, want %d", len(got.PendingOperations), len(want.PendingOperations))
	}
	for i, op := range got.PendingOperations {
		w := want.PendingOperations[i]
		if op.Type != w.Type {
			return fmt.Sprintf("pending operation #%d is %s, want %s", i, op.Type, w.Type)
		}
		if d := diffStates(op.Resource, w.Resource); d != "" {
			return fmt.Sprintf("pending operation #%d: %s", i, d)
		}
	}
	return ""
}

// diffStates compares property values with Value.Equal (NaN equals NaN,
// secrets compare by element) and every other field exactly.
func diffStates(got, want *resource.State) string {
	for _, p := range []struct {
		name      string
		got, want resource.Map
	}{{"inputs", got.Inputs, want.Inputs}, {"outputs", got.Outputs, want.Outputs}} {
		for _, k := range p.want.SortedKeys() {
			if !p.got[k].Equal(p.want[k]) {
				return fmt.Sprintf("%s: %s[%q] = %v, want %v", want.URN, p.name, k, p.got[k], p.want[k])
			}
		}
		if len(p.got) != len(p.want) {
			return fmt.Sprintf("%s: %s has %d properties, want %d", want.URN, p.name, len(p.got), len(p.want))
		}
	}
	if !got.ReplacementTrigger.Equal(want.ReplacementTrigger) {
		return fmt.Sprintf("%s: replacementTrigger = %v, want %v", want.URN, got.ReplacementTrigger, want.ReplacementTrigger)
	}
	g, w := got.Copy(), want.Copy()
	g.Inputs, g.Outputs, g.ReplacementTrigger = nil, nil, resource.Null
	w.Inputs, w.Outputs, w.ReplacementTrigger = nil, nil, resource.Null
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("%s:\ngot  %+v\nwant %+v", want.URN, *g, *w)
	}
	return ""
}
