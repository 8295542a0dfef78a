// Package childenv builds the environment of the processes Cairn starts:
// local-exec provisioners, the command provider's commands, provider
// plugins, Terraform providers, language hosts and policy packs. They get
// Cairn's environment without Cairn's own secrets: the passphrase of the
// stack's secrets (or the file that holds it), the backend URL (which may
// carry a database password) and the registry tokens of TF_TOKEN_*. A user
// who means a child to have one names it in CAIRN_CHILD_ENV_ALLOW
// (comma-separated), or passes it explicitly, as a local-exec or command
// `environment` entry does; what a caller appends to Environ's result is
// never filtered. Nor do children get the variables that are meant for
// this process only, such as the Terraform mocks file of `cairn test`,
// whatever CAIRN_CHILD_ENV_ALLOW says.
//
//	cmd := exec.Command(path)
//	cmd.Env = append(childenv.Environ(), "PULUMI_MONITOR="+addr)
package childenv

import (
	"os"
	"slices"
	"strings"
)

// AllowEnv names the variable that lists, comma-separated, the secret
// variables children may inherit all the same.
const AllowEnv = "CAIRN_CHILD_ENV_ALLOW"

// secretNames are the variables whose values are Cairn's own secrets.
var secretNames = []string{
	"CAIRN_CONFIG_PASSPHRASE", "PULUMI_CONFIG_PASSPHRASE",
	"CAIRN_CONFIG_PASSPHRASE_FILE", "PULUMI_CONFIG_PASSPHRASE_FILE",
	"CAIRN_BACKEND_URL", "PULUMI_BACKEND_URL",
}

// ownNames are the variables meant for this process only: a child that
// inherited CAIRN_TERRAFORM_MOCKS (a cairn command run by a local-exec
// provisioner, say) would answer its Terraform providers with mocks.
var ownNames = []string{"CAIRN_TERRAFORM_MOCKS"}

// Secret reports whether the variable name holds one of Cairn's own
// secrets, which children do not inherit unless AllowEnv names it.
func Secret(name string) bool {
	return slices.Contains(secretNames, name) || strings.HasPrefix(name, "TF_TOKEN_")
}

// Environ returns this process's environment without the secrets of Cairn
// that AllowEnv does not name.
func Environ() []string { return Filter(os.Environ()) }

// Inherited reports whether children inherit the variable name of this
// process's environment: it is set, and not a secret of Cairn's that
// AllowEnv does not name.
func Inherited(name string) bool {
	v, ok := os.LookupEnv(name)
	return ok && slices.Contains(Environ(), name+"="+v)
}

// Filter returns env ("NAME=value" entries) without the secrets of Cairn
// that the AllowEnv entry of env does not name, and without the
// variables meant for this process only.
func Filter(env []string) []string {
	var allowed []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, AllowEnv+"="); ok {
			allowed = strings.Split(v, ",")
		}
	}
	for i := range allowed {
		allowed[i] = strings.TrimSpace(allowed[i])
	}
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(ownNames, name) || Secret(name) && !slices.Contains(allowed, name)
	})
}
