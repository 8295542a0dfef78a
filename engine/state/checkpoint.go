package state

import (
	"encoding/json"
	"time"
)

// Deployment schema versions, as Pulumi numbers them.
const (
	// DeploymentVersion is the version written when the deployment uses no
	// feature that needs declaring.
	DeploymentVersion = 3
	// DeploymentVersionFeatures is the version written with a features list;
	// readers must refuse features they do not know.
	DeploymentVersionFeatures = 4
)

// VersionedCheckpoint is the stored form of a stack's state (a DIY backend's
// <stack>.json): a CheckpointV3 tagged with its deployment version.
type VersionedCheckpoint struct {
	Version    int             `json:"version"`
	Features   []string        `json:"features,omitempty"`
	Checkpoint json.RawMessage `json:"checkpoint"`
}

// storedCheckpoint is a VersionedCheckpoint with its checkpoint decoded,
// so that a state file is read, or written, in one pass.
type storedCheckpoint struct {
	Version    int          `json:"version"`
	Features   []string     `json:"features,omitempty"`
	Checkpoint CheckpointV3 `json:"checkpoint"`
}

// CheckpointV3 names the stack and holds its latest deployment, absent until
// the first operation.
type CheckpointV3 struct {
	Stack  string        `json:"stack"`
	Latest *DeploymentV3 `json:"latest,omitempty"`
}

// UntypedDeployment is the export and import form of a deployment, as
// `pulumi stack export` prints it and `pulumi stack import` reads it.
type UntypedDeployment struct {
	Version    int             `json:"version,omitempty"`
	Features   []string        `json:"features,omitempty"`
	Deployment json.RawMessage `json:"deployment,omitempty"`
}

// DeploymentV3 is a stack's resources and pending operations with the
// manifest and secrets provider that describe them.
type DeploymentV3 struct {
	Manifest          ManifestV1          `json:"manifest"`
	SecretsProviders  *SecretsProvidersV1 `json:"secrets_providers,omitempty"`
	Resources         []ResourceV3        `json:"resources,omitempty"`
	PendingOperations []OperationV2       `json:"pending_operations,omitempty"`
	Metadata          MetadataV1          `json:"metadata"`
}

// ManifestV1 says when and by which engine version a deployment was written;
// Magic is the hex SHA-256 of Version.
type ManifestV1 struct {
	Time    time.Time `json:"time"`
	Magic   string    `json:"magic"`
	Version string    `json:"version"`
}

// SecretsProvidersV1 names the secrets manager that encrypted the
// deployment's secrets.
type SecretsProvidersV1 struct {
	Type  string          `json:"type"`
	State json.RawMessage `json:"state,omitempty"`
}

// MetadataV1 records an integrity error the writer knew of, and Cairn's
// own state, which Pulumi ignores: the seed state, and the digests of what
// went into Check and Diff at each live resource's last step, by URN (see
// resource.State.Digest).
type MetadataV1 struct {
	IntegrityError *IntegrityErrorV1 `json:"integrity_error,omitempty"`
	Seeds          *SeedsV1          `json:"cairn_seeds,omitempty"`
	Digests        map[string]string `json:"cairn_digests,omitempty"`
}

// IntegrityErrorV1 is the integrity error a deployment was written with.
type IntegrityErrorV1 struct {
	Version string `json:"version,omitempty"`
	Command string `json:"command,omitempty"`
	Error   string `json:"error,omitempty"`
}

// OperationV2 is a pending operation: the state the engine began an
// operation with, and what it was doing.
type OperationV2 struct {
	Resource ResourceV3 `json:"resource"`
	Type     string     `json:"type"`
}

// ResourceV3 is one resource's state, with Pulumi's JSON names. Property
// maps hold values in their signature form, secrets encrypted.
type ResourceV3 struct {
	URN                     string              `json:"urn"`
	Custom                  bool                `json:"custom"`
	Delete                  bool                `json:"delete,omitempty"`
	ID                      string              `json:"id,omitempty"`
	Type                    string              `json:"type"`
	Inputs                  map[string]any      `json:"inputs,omitempty"`
	Outputs                 map[string]any      `json:"outputs,omitempty"`
	Parent                  string              `json:"parent,omitempty"`
	Protect                 bool                `json:"protect,omitempty"`
	Taint                   bool                `json:"taint,omitempty"`
	External                bool                `json:"external,omitempty"`
	Dependencies            []string            `json:"dependencies,omitempty"`
	InitErrors              []string            `json:"initErrors,omitempty"`
	Provider                string              `json:"provider,omitempty"`
	PropertyDependencies    map[string][]string `json:"propertyDependencies,omitempty"`
	PendingReplacement      bool                `json:"pendingReplacement,omitempty"`
	AdditionalSecretOutputs []string            `json:"additionalSecretOutputs,omitempty"`
	CustomTimeouts          *CustomTimeoutsV1   `json:"customTimeouts,omitempty"`
	ImportID                string              `json:"importID,omitempty"`
	RetainOnDelete          bool                `json:"retainOnDelete,omitempty"`
	DeletedWith             string              `json:"deletedWith,omitempty"`
	ReplaceWith             []string            `json:"replaceWith,omitempty"`
	Created                 *time.Time          `json:"created,omitempty"`
	Modified                *time.Time          `json:"modified,omitempty"`
	SourcePosition          string              `json:"sourcePosition,omitempty"`
	IgnoreChanges           []string            `json:"ignoreChanges,omitempty"`
	HideDiff                [][]any             `json:"hideDiff,omitempty"` // property paths, element by element
	ReplaceOnChanges        []string            `json:"replaceOnChanges,omitempty"`
	ReplacementTrigger      any                 `json:"replacementTrigger,omitempty"`
	RefreshBeforeUpdate     bool                `json:"refreshBeforeUpdate,omitempty"`
}

// CustomTimeoutsV1 are operation timeouts in seconds.
type CustomTimeoutsV1 struct {
	Create float64 `json:"create,omitempty"`
	Update float64 `json:"update,omitempty"`
	Delete float64 `json:"delete,omitempty"`
	Read   float64 `json:"read,omitempty"`
}
