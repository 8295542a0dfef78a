package console

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"time"
)

// assets are the application: its page, its ES modules, its stylesheet.
//
//go:embed assets
var assets embed.FS

// contentTypes are the types of the assets, by extension; an asset of
// another kind is not served.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
}

// serveAsset is GET /assets/{name}.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	serveFile(w, r, r.PathValue("name"))
}

// serveFile serves an asset with its type and an ETag of its content, to
// be revalidated on each use (a new cairn may have new assets).
func serveFile(w http.ResponseWriter, r *http.Request, name string) {
	data, err := fs.ReadFile(assets, path.Join("assets", name))
	typ, known := contentTypes[path.Ext(name)]
	if err != nil || !known {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(data)
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:16])+`"`)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}
