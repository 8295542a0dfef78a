package tfplugin

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/cairn-iac/cairn/internal/atomicfile"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// schemaCache keeps providers' schemas: in memory by binary, and, in dir
// when it is set, by the hash of their package, which names its contents
// exactly.
type schemaCache struct {
	dir string
	mu  sync.Mutex
	m   map[string]*providerSchema
}

// get returns the schema of the provider exe, of package hash, serving
// package pkg with param; nil when it is not kept.
func (c *schemaCache) get(exe, hash, pkg string, param *parameter) *providerSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.m[exe]; s != nil {
		return s
	}
	path := c.path(hash)
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var resp tfplugin6.GetProviderSchema_Response
	if proto.Unmarshal(data, &resp) != nil {
		return nil
	}
	s, err := newProviderSchema(pkg, param, &resp)
	if err != nil {
		return nil
	}
	c.m[exe] = s
	return s
}

// put keeps the schema of the provider exe of package hash; one that
// cannot be written is read from the provider again next time.
func (c *schemaCache) put(exe, hash string, s *providerSchema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[exe] = s
	path := c.path(hash)
	if path == "" {
		return
	}
	data, err := proto.Marshal(s.resp)
	if err != nil || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	atomicfile.Write(path, data, 0o600)
}

// path is where the schema of the package of hash is kept, or "".
func (c *schemaCache) path(hash string) string {
	if c.dir == "" || hash == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(hash))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+".pb")
}
