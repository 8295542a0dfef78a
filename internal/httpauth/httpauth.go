// Package httpauth keeps a credential to the hosts it is meant for when an
// HTTP request is redirected: net/http forwards the Authorization header to
// a subdomain, or to the same host on another port or scheme, which a
// token for one API host must not reach.
package httpauth

import (
	"errors"
	"net/http"
)

// Guard returns a copy of base (nil means Go's default client) that drops
// the Authorization header of a redirected request unless keep says the
// redirect's target may see it; via holds the requests made so far, the
// first of them the original. Whatever keep says, the header is dropped
// once the chain of redirects has gone from https to another scheme: a
// token sent over plain HTTP is readable on the way, whichever host it is
// for. Like Go's default, it stops after 10 redirects, unless base has a
// redirect policy of its own.
func Guard(base *http.Client, keep func(req *http.Request, via []*http.Request) bool) *http.Client {
	c := http.Client{}
	if base != nil {
		c = *base
	}
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if downgraded(req, via) || !keep(req, via) {
			req.Header.Del("Authorization")
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// downgraded reports whether a request made over https was redirected,
// now or on the way, to a URL of another scheme.
func downgraded(req *http.Request, via []*http.Request) bool {
	if via[0].URL.Scheme != "https" {
		return false
	}
	for _, r := range via[1:] {
		if r.URL.Scheme != "https" {
			return true
		}
	}
	return req.URL.Scheme != "https"
}
