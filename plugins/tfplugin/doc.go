// Package tfplugin runs Terraform (and OpenTofu) providers natively, behind
// the engine's provider contract: a Terraform provider serves a package
// like any other provider, so deploy, state, secrets and display need no
// special case.
//
// Factory is the built-in provider terraform-provider. Parameterized with
// a provider's source address and version constraints (from HCL's
// required_providers), it installs the provider with tfinstall (from the
// registries and mirrors of the Terraform CLI configuration, locked in
// the project's .terraform.lock.hcl), and serves the package named after
// the provider's type, at the version installed; the parameterization
// recorded in the state (the fully qualified source and that version)
// installs that version again. The binary is started with go-plugin, as
// Terraform starts it: the TF_PLUGIN_MAGIC_COOKIE handshake, protocol 6
// or 5 (a protocol 5 provider is called through the protocol 6 client,
// see client.go), mutual TLS, its standard streams and logs into Cairn's
// plugin log at debug level (see outputLevel).
//
// A provider starts only when a call needs it: its schema is kept by the
// hash of its package, the protocol version and Cairn's version
// (Options.SchemaDir), a configuration the same as
// the one recorded is not validated again, and ConfigureProvider waits for
// the first call that needs a configured provider. So a preview in which
// no resource changes starts no provider. Answers that depend on the
// request alone (validations and, for the same provider configuration,
// state upgrades and plans) are asked for once in a command: the preview
// of an up and the update after it validate and plan each resource once.
// Across commands, a state the same package wrote (tfstate.Meta.Provider)
// is not upgraded again at its schema version, nor are the same inputs
// validated again (see unvalidated): a no-change plan asks only for plans.
//
// The provider contract maps onto the protocol as Terraform's core uses it:
//
//	GetSchema            GetProviderSchema, as a package schema (pkgschema.go)
//	CheckConfig          ValidateProviderConfig (PrepareProviderConfig)
//	Configure            ConfigureProvider, before the first call that needs it
//	Check                ValidateResourceConfig
//	Diff                 UpgradeResourceState, PlanResourceChange: requires_replace → replace keys
//	Create, Update       UpgradeResourceState, PlanResourceChange, ApplyResourceChange
//	                     (a preview stops at the plan: planned values are its outputs)
//	Delete               ApplyResourceChange to null (after PlanResourceChange with plan_destroy)
//	Read                 UpgradeResourceState, ReadResource; without outputs, ImportResourceState first
//	Invoke               ReadDataSource for a data source, CallFunction for a function,
//	                     OpenEphemeralResource for an ephemeral resource (see ephemerals)
//	Move                 MoveResourceState (a moved block between resource types)
//	SignalCancellation   StopProvider
//	Close                CloseEphemeralResource for those still open, then the process ends
//
// Under `cairn test`, the Mocks file MocksEnv names makes a mock answer
// for a mocked provider (mock_provider of a Terraform test file), or one
// configuration of it (an aliased mock_provider), which is then neither
// configured nor started but to read a schema not kept yet, and for the
// resources a test overrides (override_resource, of any module): see
// mock.go. An operation run with MocksEnv set warns that it is.
//
// Write-only attributes (marked so in the package schema) are left out
// of the inputs Check returns, which the state keeps, and sent in each
// plan and apply (see writeOnly). A provider's configuration is not
// diffed: Terraform plans no change of one.
//
// A plan must keep what the configuration sets, and an apply's result
// must agree with its plan where the plan was known and be wholly known,
// as Terraform checks them (the legacy SDK's disagreements are warnings).
// A failed apply keeps the object returned with its error (an InitError):
// a create's is tainted, to be replaced by the next update.
//
// Values are cty values of the schema's implied type, encoded with msgpack;
// unknowns are Cairn's unknowns. A resource's outputs are its Terraform
// state (its attributes, null ones left out) plus "__meta" (tfstate.Meta),
// a JSON string holding the schema version the state was written with,
// the provider's private data (base64) and the hash of the package that
// wrote it: the display hides keys beginning
// with "__", and the state needs nothing new. Sensitive attributes, and values that were
// secret in the inputs, are secrets. A resource's ID is its id attribute
// ("-" for types without one). Replacement order is the program's (HCL
// deletes first, as Terraform does, unless create_before_destroy).
package tfplugin
