package tfplugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/cairn-iac/cairn/internal/atomicfile"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// schemaCache keeps providers' schemas: in memory by binary, and, in dir
// when it is set, by the hash of their package, which names its contents
// exactly, the protocol version they were read with and the version of
// Cairn that read them (which decides how a protocol 5 schema is carried
// into protocol 6's messages, and so what it means).
type schemaCache struct {
	dir     string
	version string // Cairn's
	mu      sync.Mutex
	m       map[string]*providerSchema
}

// protocols are the protocol versions a kept schema may have been read
// with.
var protocols = []int{6, 5}

// get returns the schema of the provider exe, of package hash, serving
// package pkg with param; nil when it is not kept.
func (c *schemaCache) get(exe, hash, pkg string, param *parameter) *providerSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.m[exe]; s != nil {
		return s
	}
	data, ok := c.read(hash)
	if !ok {
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

// read returns the kept schema of the package of hash, whichever
// protocol version read it.
func (c *schemaCache) read(hash string) ([]byte, bool) {
	for _, v := range protocols {
		if path := c.path(hash, v); path != "" {
			if data, err := os.ReadFile(path); err == nil {
				return data, true
			}
		}
	}
	return nil, false
}

// put keeps the schema of the provider exe of package hash, read with
// protocol version protocol; one that cannot be written is read from the
// provider again next time.
func (c *schemaCache) put(exe, hash string, protocol int, s *providerSchema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[exe] = s
	path := c.path(hash, protocol)
	if path == "" {
		return
	}
	data, err := proto.Marshal(s.resp)
	if err != nil || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	atomicfile.Write(path, data, 0o600)
}

// path is where the schema of the package of hash read with protocol
// version protocol is kept, or "".
func (c *schemaCache) path(hash string, protocol int) string {
	if c.dir == "" || hash == "" {
		return ""
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", hash, c.version, protocol))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+".pb")
}
