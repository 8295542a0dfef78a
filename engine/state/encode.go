package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// EncodeOptions say how engine state is written.
type EncodeOptions struct {
	// Secrets encrypts secret values and is recorded as the deployment's
	// secrets provider. It may be nil for a stack without secrets.
	Secrets secrets.Manager
	// ShowSecrets writes secrets as plaintext ({sig, plaintext}), for
	// `stack export --show-secrets`; nothing written so may be stored.
	ShowSecrets bool
	// Time is the manifest's time; zero means now.
	Time time.Time
	// EngineVersion is the manifest's version; empty means Cairn's own.
	EngineVersion string
}

// Encoder writes engine state in the checkpoint format. It may be used from
// many goroutines.
type Encoder struct {
	opts EncodeOptions
}

// NewEncoder returns an encoder with the options.
func NewEncoder(opts EncodeOptions) *Encoder { return &Encoder{opts: opts} }

// Deployment encodes a snapshot and returns it with the deployment version
// and the features it needs (DeploymentVersionFeatures and a list, or
// DeploymentVersion and none).
func (e *Encoder) Deployment(snap *snapshot.Snapshot) (*DeploymentV3, int, []string, error) {
	var resources []ResourceV3
	var ops []OperationV2
	d, version, features, err := e.deployment(snap,
		func(r *ResourceV3) error { resources = append(resources, *r); return nil },
		func(op *OperationV2) error { ops = append(ops, *op); return nil })
	if err != nil {
		return nil, 0, nil, err
	}
	d.Resources, d.PendingOperations = resources, ops
	return d, version, features, nil
}

// deployment encodes a snapshot as Deployment does, but hands each
// resource and pending operation to addResource or addOperation as it is
// encoded instead of keeping it in the deployment returned.
func (e *Encoder) deployment(snap *snapshot.Snapshot, addResource func(*ResourceV3) error, addOperation func(*OperationV2) error) (*DeploymentV3, int, []string, error) {
	if snap == nil {
		snap = &snapshot.Snapshot{}
	}
	t := e.opts.Time
	if t.IsZero() {
		t = time.Now()
	}
	version := e.opts.EngineVersion
	if version == "" {
		version = EngineVersion()
	}
	d := &DeploymentV3{Manifest: ManifestV1{Time: t, Magic: Magic(version), Version: version}}
	if sm := e.opts.Secrets; sm != nil {
		d.SecretsProviders = &SecretsProvidersV1{Type: sm.Type(), State: sm.State()}
	}
	values := e.values()
	features := featureSet{}
	for _, r := range snap.Resources {
		sr, err := encodeResource(r, values)
		if err != nil {
			return nil, 0, nil, err
		}
		features.addResource(&sr)
		if err := addResource(&sr); err != nil {
			return nil, 0, nil, err
		}
		if r.Digest != "" && !r.Delete {
			if d.Metadata.Digests == nil {
				d.Metadata.Digests = map[string]string{}
			}
			d.Metadata.Digests[string(r.URN)] = r.Digest
		}
	}
	for _, op := range snap.PendingOperations {
		sop, err := encodeOperation(op, values)
		if err != nil {
			return nil, 0, nil, err
		}
		features.addResource(&sop.Resource)
		if err := addOperation(&sop); err != nil {
			return nil, 0, nil, err
		}
	}
	seeds, err := encodeSeeds(snap.Seeds, values, e.opts.Secrets)
	if err != nil {
		return nil, 0, nil, err
	}
	d.Metadata.Seeds = seeds
	if values.byteStrings {
		features[featureByteString] = true
	}
	v, fs := features.version()
	return d, v, fs, nil
}

// UntypedDeployment encodes a snapshot in the export form.
func (e *Encoder) UntypedDeployment(snap *snapshot.Snapshot) (*UntypedDeployment, error) {
	d, version, features, err := e.Deployment(snap)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encoding the deployment: %w", err)
	}
	return &UntypedDeployment{Version: version, Features: features, Deployment: raw}, nil
}

// Checkpoint encodes a snapshot in the stored form, as JSON indented like
// Pulumi's DIY files, in a slice of exactly its size. A nil snapshot gives
// a checkpoint with no deployment, a stack that has never been operated
// on.
func (e *Encoder) Checkpoint(stack string, snap *snapshot.Snapshot) ([]byte, error) {
	c, err := e.EncodeCheckpoint(stack, snap)
	if err != nil {
		return nil, err
	}
	return c.Bytes(), nil
}

// EncodeCheckpoint encodes a snapshot as Checkpoint does, but one resource
// at a time: each resource is encoded into a piece of its own and dropped,
// so a large stack's state is never held twice over, and the pieces are
// written out in place.
func (e *Encoder) EncodeCheckpoint(stack string, snap *snapshot.Snapshot) (*EncodedCheckpoint, error) {
	chk := storedCheckpoint{Version: DeploymentVersion, Checkpoint: CheckpointV3{Stack: stack}}
	resources, ops := newElements(resourcePlaceholder), newElements(operationPlaceholder)
	if snap != nil {
		d, version, features, err := e.deployment(snap,
			func(r *ResourceV3) error { return resources.add(r) },
			func(op *OperationV2) error { return ops.add(op) })
		if err != nil {
			return nil, err
		}
		// The resources and pending operations are each marshalled as a
		// placeholder, which their pieces replace.
		if len(resources.pieces) > 0 {
			d.Resources = []ResourceV3{resourcePlaceholder}
		}
		if len(ops.pieces) > 0 {
			d.PendingOperations = []OperationV2{operationPlaceholder}
		}
		chk.Version, chk.Features, chk.Checkpoint.Latest = version, features, d
	}
	rest, err := json.MarshalIndent(chk, "", checkpointIndent)
	if err != nil {
		return nil, fmt.Errorf("encoding the checkpoint: %w", err)
	}
	var lists []*elements
	for _, l := range []*elements{resources, ops} {
		if len(l.pieces) > 0 {
			lists = append(lists, l)
		}
	}
	return splice(rest, lists)
}

// Resource encodes one resource state.
func (e *Encoder) Resource(r *resource.State) (*ResourceV3, error) {
	sr, err := encodeResource(r, e.values())
	return &sr, err
}

// Operation encodes one pending operation.
func (e *Encoder) Operation(op resource.Operation) (*OperationV2, error) {
	sop, err := encodeOperation(op, e.values())
	return &sop, err
}

func (e *Encoder) values() *valueEncoder {
	v := &valueEncoder{showSecrets: e.opts.ShowSecrets}
	if e.opts.Secrets != nil {
		v.encrypt, v.key = e.opts.Secrets.Encrypt, keyName(e.opts.Secrets.Type(), e.opts.Secrets.State())
	}
	return v
}

// Magic returns the manifest magic of an engine version: the hex SHA-256 of
// the version string, or "" for an empty version, as Pulumi writes when its
// CLI was built without a version (a development build, as the file backend
// of such a build records it) and as Pulumi's integrity check expects.
func Magic(version string) string {
	if version == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(version))
	return hex.EncodeToString(sum[:])
}

// EngineVersion is the version Cairn writes in manifests: "cairn-" and the
// module version it was built as, or "cairn-dev".
func EngineVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return "cairn-" + info.Main.Version
	}
	return "cairn-dev"
}

func encodeOperation(op resource.Operation, values *valueEncoder) (OperationV2, error) {
	sr, err := encodeResource(op.Resource, values)
	if err != nil {
		return OperationV2{}, fmt.Errorf("pending %s operation: %w", op.Type, err)
	}
	return OperationV2{Resource: sr, Type: string(op.Type)}, nil
}

func encodeResource(r *resource.State, values *valueEncoder) (ResourceV3, error) {
	inputs, err := values.encodeMap(r.Inputs)
	if err != nil {
		return ResourceV3{}, fmt.Errorf("%s: inputs: %w", r.URN, err)
	}
	outputs, err := values.encodeMap(r.Outputs)
	if err != nil {
		return ResourceV3{}, fmt.Errorf("%s: outputs: %w", r.URN, err)
	}
	trigger, err := values.encodeValue(r.ReplacementTrigger)
	if err != nil {
		return ResourceV3{}, fmt.Errorf("%s: replacementTrigger: %w", r.URN, err)
	}
	hideDiff, err := encodePaths(r.HideDiff)
	if err != nil {
		return ResourceV3{}, fmt.Errorf("%s: hideDiff: %w", r.URN, err)
	}
	sr := ResourceV3{
		URN:                     string(r.URN),
		Custom:                  r.Custom,
		Delete:                  r.Delete,
		ID:                      string(r.ID),
		Type:                    r.Type,
		Inputs:                  inputs,
		Outputs:                 outputs,
		Parent:                  string(r.Parent),
		Protect:                 r.Protect,
		Taint:                   r.Taint,
		External:                r.External,
		Dependencies:            urnStrings(r.Dependencies),
		InitErrors:              r.InitErrors,
		Provider:                r.Provider,
		PendingReplacement:      r.PendingReplacement,
		AdditionalSecretOutputs: r.AdditionalSecretOutputs,
		ImportID:                string(r.ImportID),
		RetainOnDelete:          r.RetainOnDelete,
		DeletedWith:             string(r.DeletedWith),
		ReplaceWith:             urnStrings(r.ReplaceWith),
		Created:                 r.Created,
		Modified:                r.Modified,
		SourcePosition:          r.SourcePosition,
		IgnoreChanges:           r.IgnoreChanges,
		HideDiff:                hideDiff,
		ReplaceOnChanges:        r.ReplaceOnChanges,
		ReplacementTrigger:      trigger,
		RefreshBeforeUpdate:     r.RefreshBeforeUpdate,
	}
	if len(r.PropertyDependencies) > 0 {
		sr.PropertyDependencies = make(map[string][]string, len(r.PropertyDependencies))
		for k, deps := range r.PropertyDependencies {
			sr.PropertyDependencies[k] = urnStrings(deps)
		}
	}
	if !r.CustomTimeouts.IsZero() {
		t := r.CustomTimeouts
		sr.CustomTimeouts = &CustomTimeoutsV1{Create: t.Create, Update: t.Update, Delete: t.Delete, Read: t.Read}
	}
	return sr, nil
}

// encodePaths writes property paths element by element, as Pulumi
// stores them.
func encodePaths(paths []string) ([][]any, error) {
	var out [][]any
	for _, s := range paths {
		p, err := resource.ParsePath(s)
		if err != nil {
			return nil, err
		}
		out = append(out, []any(p))
	}
	return out, nil
}

func urnStrings(urns []resource.URN) []string {
	if urns == nil {
		return nil
	}
	out := make([]string, len(urns))
	for i, u := range urns {
		out[i] = string(u)
	}
	return out
}

// Seal returns a secret with the ciphertext the encoder writes it as,
// encrypting its element unless it already has a ciphertext under the
// encoder's key (deploy.Options.SealSecret).
func (e *Encoder) Seal(secret resource.Value) (resource.Value, error) {
	values := e.values()
	if values.encrypt == nil || values.showSecrets {
		return secret, errNoSecretsManager
	}
	if _, key, ok := secret.Ciphertext(); ok && key == values.key {
		return secret, nil
	}
	obj, err := values.seal(secret)
	if err != nil {
		return secret, err
	}
	return resource.SecretWithCiphertext(secret.SecretElement(), obj["ciphertext"].(string), values.key), nil
}
