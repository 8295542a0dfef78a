// Package console serves `cairn console`: a read-only web application, from
// the cairn binary, that shows a backend's stacks, each stack's resources as
// a tree and as a dependency graph, their inputs and outputs, the stack's
// outputs and history, and a saved plan's changes.
//
// The application is plain ES modules and one stylesheet, embedded in the
// binary (assets/); nothing is fetched from elsewhere. The server answers
// the pages and assets to anyone who can reach it, and the JSON API under
// /api/ only to a browser holding its token: each console makes a random
// token, which its URL carries in the fragment (#token=…, given to the
// server by the page's script) or the query (?token=…, exchanged by a
// redirect) and which becomes an HttpOnly, SameSite=Strict cookie for
// /api/ only. RedirectPage writes a private page leading to the URL, for a
// browser to open without the token on its command line.
//
//	ln, err := net.Listen("tcp", "127.0.0.1:0")
//	c, err := console.New(ln, console.Options{Stacks: b, Current: ref})
//	fmt.Println(c.URL()) // http://127.0.0.1:PORT/stacks/web/dev#token=…
//	err = c.Serve(ctx)   // until ctx ends
//
// The console reads through Stacks, the methods of backend.Backend that
// change nothing, so it cannot write to a backend, and it starts no
// operation. It reads states with a secrets manager that opens nothing:
// every secret reaches it as an empty value marked secret, and the API
// sends each as {"secret": true}. It needs no passphrase and never holds a
// secret's plaintext.
package console
