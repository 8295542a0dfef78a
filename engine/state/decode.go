package state

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Decoder reads engine state written in the checkpoint format, by Cairn or
// by Pulumi. Decoding rewrites the JSON data it is given in place.
type Decoder struct {
	secrets secrets.Manager
}

// NewDecoder returns a decoder that decrypts secrets with sm, or with the
// decrypter sm gives for the secrets provider a deployment names. sm may be
// nil for a stack without secrets. A *secrets.Lazy keeps each secret sealed
// until it is first read; any other manager decrypts them all as the state
// is read. Either way a secret keeps its ciphertext, which an encoder under
// the same key writes again as it is.
func NewDecoder(sm secrets.Manager) *Decoder { return &Decoder{secrets: sm} }

// Deployment decodes a deployment into a snapshot. It checks the manifest
// magic and the shape of each resource, not the snapshot's integrity.
func (d *Decoder) Deployment(dep *DeploymentV3) (*snapshot.Snapshot, error) {
	if err := CheckManifest(dep.Manifest); err != nil {
		return nil, err
	}
	values := d.values(dep.SecretsProviders)
	snap := &snapshot.Snapshot{}
	for i := range dep.Resources {
		r, err := decodeResource(&dep.Resources[i], values)
		if err != nil {
			return nil, fmt.Errorf("resource #%d: %w", i, err)
		}
		if !r.Delete {
			r.Digest = dep.Metadata.Digests[string(r.URN)]
		}
		snap.Resources = append(snap.Resources, r)
	}
	for i := range dep.PendingOperations {
		op, err := decodeOperation(&dep.PendingOperations[i], values)
		if err != nil {
			return nil, fmt.Errorf("pending operation #%d: %w", i, err)
		}
		snap.PendingOperations = append(snap.PendingOperations, op)
	}
	snap.Seeds = decodeSeeds(dep.Metadata.Seeds, dep.SecretsProviders)
	return snap, nil
}

// Resource decodes one resource state whose secrets were encrypted by the
// secrets provider sp (nil: d's manager).
func (d *Decoder) Resource(r *ResourceV3, sp *SecretsProvidersV1) (*resource.State, error) {
	return decodeResource(r, d.values(sp))
}

// Operation decodes one pending operation (see Resource).
func (d *Decoder) Operation(op *OperationV2, sp *SecretsProvidersV1) (resource.Operation, error) {
	return decodeOperation(op, d.values(sp))
}

// values returns a value decoder for secrets encrypted by sp. The decrypter
// is only asked for when a secret is met, so a state without secrets needs
// no manager.
func (d *Decoder) values(sp *SecretsProvidersV1) *valueDecoder {
	if d.secrets == nil {
		return &valueDecoder{}
	}
	lazy, _ := d.secrets.(*secrets.Lazy)
	if sp == nil {
		return &valueDecoder{decrypt: d.secrets.Decrypt, key: keyName(d.secrets.Type(), d.secrets.State()), lazy: lazy}
	}
	var once sync.Once
	var dec secrets.Decrypter
	var err error
	return &valueDecoder{key: keyName(sp.Type, sp.State), lazy: lazy, decrypt: func(ciphertext string) (string, error) {
		once.Do(func() { dec, err = d.secrets.DecrypterFor(sp.Type, sp.State) })
		if err != nil {
			return "", err
		}
		return dec.Decrypt(ciphertext)
	}}
}

// CheckManifest checks that a manifest's magic is the hash of its version
// (both empty when Pulumi did not know its own version).
func CheckManifest(m ManifestV1) error {
	if m.Magic != Magic(m.Version) {
		return fmt.Errorf("the deployment's manifest magic %q does not match its version %q: the state was edited by hand or is corrupt", m.Magic, m.Version)
	}
	return nil
}

// ParseCheckpoint reads a stored checkpoint, refusing versions and features
// Cairn cannot read.
func ParseCheckpoint(data []byte) (*CheckpointV3, error) {
	var sc storedCheckpoint
	if err := json.Unmarshal(data, &sc); err != nil {
		// A version Cairn cannot read may differ in shape: say that first.
		if _, verr := parseVersioned(data); verr != nil {
			return nil, verr
		}
		return nil, fmt.Errorf("malformed checkpoint: %w", err)
	}
	if err := checkVersion(sc.Version, sc.Features); err != nil {
		return nil, err
	}
	return &sc.Checkpoint, nil
}

// Summary is what a list of stacks shows of a stored checkpoint.
type Summary struct {
	// Time is the manifest's time, zero for a stack never operated on.
	Time      time.Time
	Resources int
}

// ParseSummary reads a stored checkpoint's manifest time and number of
// resources, refusing versions and features Cairn cannot read. It skips the
// resources' contents, so it is much cheaper than ParseCheckpoint.
func ParseSummary(data []byte) (Summary, error) {
	var sc struct {
		Version    int      `json:"version"`
		Features   []string `json:"features"`
		Checkpoint struct {
			Latest *struct {
				Manifest  ManifestV1 `json:"manifest"`
				Resources []struct{} `json:"resources"`
			} `json:"latest"`
		} `json:"checkpoint"`
	}
	// encoding/json/v2, under encoding/json's semantics, skips the
	// resources' contents without decoding them.
	if err := jsonv2.Unmarshal(data, &sc, compatible); err != nil {
		return Summary{}, fmt.Errorf("malformed checkpoint: %w", err)
	}
	if err := checkVersion(sc.Version, sc.Features); err != nil {
		return Summary{}, err
	}
	if l := sc.Checkpoint.Latest; l != nil {
		return Summary{Time: l.Manifest.Time, Resources: len(l.Resources)}, nil
	}
	return Summary{}, nil
}

// ExportCheckpoint returns the export form of a stored checkpoint, its
// deployment copied as it is (so nothing is decrypted), or nil if the stack
// has no deployment yet.
func ExportCheckpoint(data []byte) (*UntypedDeployment, error) {
	vc, err := parseVersioned(data)
	if err != nil {
		return nil, err
	}
	var chk struct {
		Latest json.RawMessage `json:"latest"`
	}
	if err := json.Unmarshal(vc.Checkpoint, &chk); err != nil {
		return nil, fmt.Errorf("malformed checkpoint: %w", err)
	}
	if len(chk.Latest) == 0 || string(chk.Latest) == "null" {
		return nil, nil
	}
	return &UntypedDeployment{Version: vc.Version, Features: vc.Features, Deployment: chk.Latest}, nil
}

// parseVersioned reads a checkpoint's envelope and checks its version.
func parseVersioned(data []byte) (*VersionedCheckpoint, error) {
	var vc VersionedCheckpoint
	if err := json.Unmarshal(data, &vc); err != nil {
		return nil, fmt.Errorf("malformed checkpoint: %w", err)
	}
	return &vc, checkVersion(vc.Version, vc.Features)
}

// ParseUntypedDeployment reads an exported deployment, refusing versions and
// features Cairn cannot read.
func ParseUntypedDeployment(u *UntypedDeployment) (*DeploymentV3, error) {
	if err := checkVersion(u.Version, u.Features); err != nil {
		return nil, err
	}
	var d DeploymentV3
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		return nil, fmt.Errorf("malformed deployment: %w", err)
	}
	return &d, nil
}

func decodeOperation(op *OperationV2, values *valueDecoder) (resource.Operation, error) {
	r, err := decodeResource(&op.Resource, values)
	if err != nil {
		return resource.Operation{}, err
	}
	return resource.Operation{Resource: r, Type: resource.OperationType(op.Type)}, nil
}

func decodeResource(sr *ResourceV3, values *valueDecoder) (*resource.State, error) {
	inputs, err := values.decodeMap(sr.Inputs)
	if err != nil {
		return nil, fmt.Errorf("%s: inputs: %w", sr.URN, err)
	}
	outputs, err := values.decodeMap(sr.Outputs)
	if err != nil {
		return nil, fmt.Errorf("%s: outputs: %w", sr.URN, err)
	}
	return resourceState(sr, inputs, outputs, values)
}

// resourceState is the state sr holds, with its property maps decoded.
func resourceState(sr *ResourceV3, inputs, outputs resource.Map, values *valueDecoder) (*resource.State, error) {
	if sr.URN == "" {
		return nil, fmt.Errorf("it has no urn")
	}
	if sr.Type == "" {
		return nil, fmt.Errorf("%s has no type", sr.URN)
	}
	trigger, err := values.decodeValue(sr.ReplacementTrigger)
	if err != nil {
		return nil, fmt.Errorf("%s: replacementTrigger: %w", sr.URN, err)
	}
	hideDiff, err := decodePaths(sr.HideDiff)
	if err != nil {
		return nil, fmt.Errorf("%s: hideDiff: %w", sr.URN, err)
	}
	r := &resource.State{
		URN:                     resource.URN(sr.URN),
		Type:                    sr.Type,
		Custom:                  sr.Custom,
		Delete:                  sr.Delete,
		ID:                      resource.ID(sr.ID),
		Inputs:                  inputs,
		Outputs:                 outputs,
		Parent:                  resource.URN(sr.Parent),
		Protect:                 sr.Protect,
		Taint:                   sr.Taint,
		External:                sr.External,
		Dependencies:            toURNs(sr.Dependencies),
		InitErrors:              sr.InitErrors,
		Provider:                sr.Provider,
		PendingReplacement:      sr.PendingReplacement,
		AdditionalSecretOutputs: sr.AdditionalSecretOutputs,
		ImportID:                resource.ID(sr.ImportID),
		RetainOnDelete:          sr.RetainOnDelete,
		DeletedWith:             resource.URN(sr.DeletedWith),
		ReplaceWith:             toURNs(sr.ReplaceWith),
		ReplacementTrigger:      trigger,
		IgnoreChanges:           sr.IgnoreChanges,
		ReplaceOnChanges:        sr.ReplaceOnChanges,
		HideDiff:                hideDiff,
		RefreshBeforeUpdate:     sr.RefreshBeforeUpdate,
		SourcePosition:          sr.SourcePosition,
		Created:                 sr.Created,
		Modified:                sr.Modified,
	}
	if sr.PropertyDependencies != nil {
		r.PropertyDependencies = make(map[string][]resource.URN, len(sr.PropertyDependencies))
		for k, deps := range sr.PropertyDependencies {
			r.PropertyDependencies[k] = toURNs(deps)
		}
	}
	if t := sr.CustomTimeouts; t != nil {
		r.CustomTimeouts = resource.CustomTimeouts{Create: t.Create, Update: t.Update, Delete: t.Delete, Read: t.Read}
	}
	return r, nil
}

// decodePaths reads property paths stored element by element (strings for
// keys, numbers for indices) back into their written form.
func decodePaths(paths [][]any) ([]string, error) {
	var out []string
	for _, elems := range paths {
		p := make(resource.Path, len(elems))
		for i, e := range elems {
			switch e := e.(type) {
			case string:
				p[i] = e
			case float64:
				p[i] = int(e)
			default:
				return nil, fmt.Errorf("property path %v: element %v is neither a key nor an index", elems, e)
			}
		}
		out = append(out, p.String())
	}
	return out, nil
}

func toURNs(ss []string) []resource.URN {
	if ss == nil {
		return nil
	}
	out := make([]resource.URN, len(ss))
	for i, s := range ss {
		out[i] = resource.URN(s)
	}
	return out
}
