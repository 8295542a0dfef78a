package postgres

import (
	"errors"
	"net/url"
	"strings"
)

// mask stands for a secret in a URL shown.
const mask = "xxxxx"

// redact returns a PostgreSQL URL fit to show, and the secrets it masked:
// the password of its user and the value of every parameter whose name
// holds "password" (password, sslpassword) are replaced by xxxxx.
// Parameters that name files (passfile, sslkey, sslcert, sslrootcert) are
// kept: they say where a secret is, not what it is, and showing them helps
// find the wrong one.
//
// A URL the standard parser reads, whose only @ (if any) ends its user
// information, is masked exactly. Any other (several hosts, a password
// with an unescaped /, ?, # or @) is masked from the user's first colon to
// the URL's last @: more than the password when a parameter holds an @,
// never less.
func redact(rawURL string) (string, []string) {
	ats := strings.Count(rawURL, "@")
	if u, err := url.Parse(rawURL); err == nil && (ats == 0 || ats == 1 && u.User != nil) {
		var secrets []string
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
		query, more := redactQuery(u.RawQuery)
		u.RawQuery = query
		return u.Redacted(), append(secrets, more...)
	}
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return "postgres://…", nil
	}
	var secrets []string
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		if user, password, ok := strings.Cut(rest[:at], ":"); ok {
			secrets = append(secrets, password)
			rest = user + ":" + mask + rest[at:]
		}
	}
	if base, query, ok := strings.Cut(rest, "?"); ok {
		query, more := redactQuery(query)
		rest, secrets = base+"?"+query, append(secrets, more...)
	}
	return scheme + "://" + rest, secrets
}

// redactQuery masks the values of the parameters of a URL query whose name
// holds "password", returning them.
func redactQuery(query string) (string, []string) {
	if query == "" {
		return "", nil
	}
	pairs := strings.Split(query, "&")
	var secrets []string
	for i, pair := range pairs {
		key, value, ok := strings.Cut(pair, "=")
		if !ok {
			continue
		}
		name, err := url.QueryUnescape(key)
		if err != nil {
			name = key
		}
		if strings.Contains(strings.ToLower(name), "password") {
			pairs[i] = key + "=" + mask
			secrets = append(secrets, value)
			if v, err := url.QueryUnescape(value); err == nil {
				secrets = append(secrets, v)
			}
		}
	}
	return strings.Join(pairs, "&"), secrets
}

// maskErr removes the secrets of rawURL from an error's message.
func maskErr(err error, rawURL string) error {
	_, secrets := redact(rawURL)
	msg := err.Error()
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, mask)
		}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}
