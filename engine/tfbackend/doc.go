// Package tfbackend reads Terraform's backend configurations: the
// arguments of a `terraform { backend "TYPE" { … } }` block, or of a
// terraform_remote_state data source, with the environment variables and
// defaults Terraform applies to them. A Backend says where Terraform keeps
// the state of each workspace, reads it (without taking Terraform's lock,
// as Terraform reads it for terraform_remote_state and `state pull`), and
// names the place beside it where Cairn keeps its own stacks:
//
//	b, err := tfbackend.New("s3", map[string]any{"bucket": "b", "key": "net/terraform.tfstate", "region": "eu-west-1"},
//		tfbackend.Options{Dir: dir, Getenv: os.Getenv})
//	data, err := b.ReadState(ctx, "default") // ErrNoState when there is none
//	url, err := b.CairnURL()                 // s3://b/net/terraform.tfstate.cairn?region=eu-west-1
//
// Object stores are read through gocloud.dev/blob, PostgreSQL through pgx,
// the http backend with a GET. An error in the arguments is an *ArgError
// naming the argument, for the caller to place in the source.
package tfbackend
