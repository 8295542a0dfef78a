package console

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
)

// securityPolicy is the Content-Security-Policy of every response: scripts,
// styles, images and requests from the console itself only, no inline
// script or style, no plugins, no frames.
const securityPolicy = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// newToken returns 32 random bytes in URL-safe base64.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the console's token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// guard gives every response the headers that keep the browser strict, and
// refuses requests naming another host.
func (c *Console) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", securityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if host, _, err := net.SplitHostPort(r.Host); c.hosts != nil && (err != nil || !c.hosts[host]) {
			http.Error(w, "the console answers requests for 127.0.0.1 and localhost only", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// valid reports whether token is the console's, in constant time.
func (c *Console) valid(token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(c.token)) == 1
}

// authorized reports whether the request carries the token's cookie.
func (c *Console) authorized(r *http.Request) bool {
	ck, err := r.Cookie(c.cookie)
	return err == nil && c.valid(ck.Value)
}

// grant gives the browser the token's cookie, for the session: HttpOnly,
// so no script reads it; SameSite=Strict, so no other site's page sends
// it; and for the API's paths only (Path=/api/), since browsers send a
// cookie of 127.0.0.1 to every port of it, whichever service listens
// there: another service on the host gets it only with requests for its
// own /api/ paths, never with its pages. Its name holds the console's
// port, so that two consoles do not take each other's.
func (c *Console) grant(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: c.cookie, Value: c.token, Path: cookiePath, HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

// cookiePath is the prefix of the requests that need the token's cookie.
const cookiePath = "/api/"

// session is POST /api/session, {"token": "…"}: the page's script gives
// the token of its URL's fragment, and gets the cookie if it is right.
func (c *Console) session(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&body); err != nil || !c.valid(body.Token) {
		writeError(w, http.StatusUnauthorized, "wrong token: open the URL `cairn console` printed")
		return
	}
	c.grant(w)
	w.WriteHeader(http.StatusNoContent)
}

// page serves the application's page for any of its paths. A token in the
// query is exchanged for the cookie, and taken out of the address by a
// redirect.
func (c *Console) page(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("token") {
		if c.valid(q.Get("token")) {
			c.grant(w)
		}
		q.Del("token")
		u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return
	}
	serveFile(w, r, "index.html")
}
