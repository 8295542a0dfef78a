package state

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Features a deployment may declare, named as Pulumi names them.
const (
	featureRefreshBeforeUpdate = "refreshBeforeUpdate"
	featureTaint               = "taint"
	featureReplaceWith         = "replaceWith"
	featureByteString          = "byteString"
)

// supportedFeatures are the features Cairn reads and writes. Pulumi
// knows others (views, hooks, snippets-prototype, extensionParameterization)
// whose data Cairn would lose, so it refuses them.
var supportedFeatures = map[string]bool{
	featureRefreshBeforeUpdate: true,
	featureTaint:               true,
	featureReplaceWith:         true,
	featureByteString:          true,
}

// UnsupportedFeaturesError is returned for a deployment that declares
// features Cairn does not support.
type UnsupportedFeaturesError struct {
	Features []string
}

func (e *UnsupportedFeaturesError) Error() string {
	return fmt.Sprintf("this stack's deployment needs support for the following features: %s; "+
		"Cairn supports %s, so operate this stack with the tool that wrote it",
		strings.Join(e.Features, ", "), strings.Join(slices.Sorted(maps.Keys(supportedFeatures)), ", "))
}

// checkVersion checks that a deployment of version with features can be
// read.
func checkVersion(version int, features []string) error {
	switch {
	case version > DeploymentVersionFeatures:
		return fmt.Errorf("this stack's deployment has version %d, newer than Cairn reads (%d); upgrade Cairn", version, DeploymentVersionFeatures)
	case version == 0:
		return errors.New("it has no version: it is not a Pulumi checkpoint, or it is corrupt")
	case version < DeploymentVersion:
		return fmt.Errorf("this stack's deployment has version %d, older than Cairn reads (%d); "+
			"run any operation on it with `pulumi` to upgrade it, then export it again", version, DeploymentVersion)
	case version < DeploymentVersionFeatures:
		return nil // features are only looked at from version 4
	}
	var unsupported []string
	for _, f := range features {
		if !supportedFeatures[f] {
			unsupported = append(unsupported, f)
		}
	}
	if len(unsupported) > 0 {
		return &UnsupportedFeaturesError{Features: unsupported}
	}
	return nil
}

// featureSet collects the features a deployment uses while it is written.
type featureSet map[string]bool

// addResource records the features r uses.
func (f featureSet) addResource(r *ResourceV3) {
	if r.RefreshBeforeUpdate {
		f[featureRefreshBeforeUpdate] = true
	}
	if r.Taint {
		f[featureTaint] = true
	}
	if len(r.ReplaceWith) > 0 {
		f[featureReplaceWith] = true
	}
}

// version returns the deployment version and sorted features list to write.
func (f featureSet) version() (int, []string) {
	if len(f) == 0 {
		return DeploymentVersion, nil
	}
	return DeploymentVersionFeatures, slices.Sorted(maps.Keys(f))
}
