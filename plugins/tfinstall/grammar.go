package tfinstall

import "github.com/cairn-iac/cairn/plugins/tfaddr"

// The installers read Terraform's grammar through tfaddr, as the HCL front
// end does, so both read addresses and versions as OpenTofu does.
type (
	Provider    = tfaddr.Provider
	Version     = tfaddr.Version
	Constraints = tfaddr.Constraints
)
