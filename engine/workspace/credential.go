package workspace

import "strings"

// credentialWords are what the name of a configuration key holding a
// credential usually contains, lower-cased without separators.
var credentialWords = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "privatekey",
	"accesskey", "credential", "connectionstring"}

// LooksLikeCredential reports whether a configuration key's name (the part
// after its namespace, path included) suggests that its value is a
// credential: dbPassword, api_key, github-token, tls.privateKey.
func LooksLikeCredential(k Key) bool {
	_, name, _ := strings.Cut(k.Name, ":")
	name += k.Path.String()
	name = strings.NewReplacer("_", "", "-", "", ".", "", " ", "").Replace(strings.ToLower(name))
	for _, w := range credentialWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
