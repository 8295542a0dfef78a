package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// FormatVersion is the version of the plan file this package writes and
// the newest it reads.
const FormatVersion = 1

// fileV1 is the plan file, version 1.
type fileV1 struct {
	Version     int    `json:"version"`
	Stack       string `json:"stack"`
	Project     string `json:"project"`
	Base        Base   `json:"base"`
	ProgramHash string `json:"programHash,omitempty"`
	ConfigHash  string `json:"configHash,omitempty"`
	// SeedKey is the seed key as a secret value, encrypted.
	SeedKey   map[string]any   `json:"seedKey,omitempty"`
	Resources []resourceStepV1 `json:"resources"`
}

// resourceStepV1 is one resource's planned step; inputs and outputs are in
// the state's form, secrets encrypted.
type resourceStepV1 struct {
	URN     resource.URN   `json:"urn"`
	Op      string         `json:"op"`
	Inputs  map[string]any `json:"inputs"` // null for deletes
	Outputs map[string]any `json:"outputs,omitempty"`
}

// seedKeyName is the property the seed key is kept under.
const seedKeyName = "key"

// Encode writes a plan as indented JSON, its secrets (and seed key)
// encrypted by sm.
func Encode(p *Plan, sm secrets.Manager) ([]byte, error) {
	enc := state.NewEncoder(state.EncodeOptions{Secrets: sm})
	f := fileV1{Version: FormatVersion, Stack: p.Stack, Project: p.Project, Base: p.Base,
		ProgramHash: p.ProgramHash, ConfigHash: p.ConfigHash, Resources: []resourceStepV1{}}
	if len(p.SeedKey) > 0 {
		key, err := enc.Properties(resource.Map{seedKeyName: resource.MakeSecret(resource.String(hex.EncodeToString(p.SeedKey)))})
		if err != nil {
			return nil, fmt.Errorf("the plan's seed key: %w", err)
		}
		f.SeedKey = key
	}
	urns := make([]resource.URN, 0, len(p.Resources))
	for u := range p.Resources {
		urns = append(urns, u)
	}
	sort.Slice(urns, func(i, j int) bool { return urns[i] < urns[j] })
	for _, u := range urns {
		s := p.Resources[u]
		rs := resourceStepV1{URN: u, Op: s.Op}
		var err error
		if rs.Inputs, err = enc.Properties(s.Inputs); err != nil {
			return nil, fmt.Errorf("the planned inputs of %s: %w", u, err)
		}
		if rs.Outputs, err = enc.Properties(s.Outputs); err != nil {
			return nil, fmt.Errorf("the expected outputs of %s: %w", u, err)
		}
		f.Resources = append(f.Resources, rs)
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Decode reads a plan written by Encode for the stack of project,
// decrypting its secrets with sm (the stack's).
func Decode(data []byte, stack, project string, sm secrets.Manager) (*Plan, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a plan file: %w", err)
	}
	switch {
	case head.Version == nil:
		return nil, errors.New("not a plan file: it has no version; save one with `cairn preview --save-plan`")
	case *head.Version > FormatVersion || *head.Version < 1:
		return nil, fmt.Errorf("the plan file has format version %d, and this Cairn reads version %d; save the plan again with this Cairn", *head.Version, FormatVersion)
	}
	var f fileV1
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a plan file: %w", err)
	}
	if f.Stack != stack || f.Project != project {
		return nil, fmt.Errorf("it is for stack %q of project %q, not %q of %q; select that stack or save a plan for this one",
			f.Stack, f.Project, stack, project)
	}
	dec := state.NewDecoder(sm)
	p := &Plan{Stack: f.Stack, Project: f.Project, Base: f.Base, ProgramHash: f.ProgramHash, ConfigHash: f.ConfigHash,
		Resources: make(map[resource.URN]Step, len(f.Resources))}
	if f.SeedKey != nil {
		m, err := dec.Properties(f.SeedKey)
		if err != nil {
			return nil, fmt.Errorf("the plan's seed key: %w", err)
		}
		key := m[seedKeyName].Unsecret()
		if !key.IsString() {
			return nil, errors.New("the plan's seed key is not a string")
		}
		if p.SeedKey, err = hex.DecodeString(key.StringValue()); err != nil {
			return nil, fmt.Errorf("the plan's seed key: %w", err)
		}
	}
	for _, rs := range f.Resources {
		if _, dup := p.Resources[rs.URN]; dup || rs.URN == "" || rs.Op == "" {
			return nil, fmt.Errorf("the plan's step for %q is duplicated or has no URN or operation", rs.URN)
		}
		s := Step{Op: rs.Op}
		var err error
		if rs.Inputs != nil {
			if s.Inputs, err = dec.Properties(rs.Inputs); err != nil {
				return nil, fmt.Errorf("the planned inputs of %s: %w", rs.URN, err)
			}
		}
		if rs.Outputs != nil {
			if s.Outputs, err = dec.Properties(rs.Outputs); err != nil {
				return nil, fmt.Errorf("the expected outputs of %s: %w", rs.URN, err)
			}
		}
		p.Resources[rs.URN] = s
	}
	return p, nil
}

// Save writes a plan to path and returns the hash of the file, which
// identifies the plan (a pull-request comment shows it, and `up --plan`
// prints it).
func Save(path string, p *Plan, sm secrets.Manager) (string, error) {
	data, err := Encode(p, sm)
	if err != nil {
		return "", fmt.Errorf("saving the plan: %w", err)
	}
	if err := atomicfile.Write(path, data, atomicfile.Perm(path, 0o600)); err != nil {
		return "", fmt.Errorf("saving the plan: %w", err)
	}
	return Hash(data), nil
}

// Load reads the plan saved at path for the stack of project and returns
// it with the file's hash.
func Load(path, stack, project string, sm secrets.Manager) (*Plan, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("reading the plan: %w", err)
	}
	p, err := Decode(data, stack, project, sm)
	if err != nil {
		return nil, "", fmt.Errorf("plan %s: %w", path, err)
	}
	return p, Hash(data), nil
}

// Hash returns "sha256:" and the hex SHA-256 of data.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}
