// Package tfbuiltin is the provider of the package "terraform": Terraform's
// built-in provider (terraform.io/builtin/terraform), in process as in
// Terraform. It serves terraform_data (type terraform:index/data:Data, as
// the tokens of Terraform providers are made): id, a random UUID chosen at
// create; input, any value; output, input once applied (unknown in a
// preview of a change of input); triggers_replace, any value whose change
// (of value or of type) replaces the resource. Deleting it deletes
// nothing; importing it by ID sets only id. It takes over the state of a
// null_resource that a moved block moves to it (triggers become
// triggers_replace), as Terraform's does. Its outputs carry a schema
// version of 0 under tfstate.MetaKey, as those of Terraform providers do,
// so that a state moved in from Terraform looks the same.
//
// It also serves the resource that runs the local-exec provisioners of a
// resource of a Terraform configuration (tfstate.ProvisionersType), the
// child of that resource: its trigger is the resource's ID, whose change
// replaces it; creating it runs the creation-time provisioners (create),
// deleting it the destroy-time ones (destroy), as recorded; any other
// change is recorded without running anything. The commands run in dir
// (see Factory) unless their workingDir says otherwise, and what they
// print goes to Factory's diag, line by line under the resource's
// Terraform address; the output of one whose configuration holds a
// secret is suppressed.
//
// Its data source terraform_remote_state reads the root outputs of a state
// kept by one of Terraform's backends: local, s3, gcs, azurerm, pg or http
// (see remoteState).
package tfbuiltin
