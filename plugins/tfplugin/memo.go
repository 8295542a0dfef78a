package tfplugin

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"google.golang.org/protobuf/proto"
)

// memo keeps a provider binary's answers to the requests whose answers
// depend on the request alone, for the life of a Factory (one command): a
// resource configuration's validation, and, given the same provider
// configuration, a state's upgrade and a plan. A provider answers those
// alike every time (Terraform refuses a plan that changes when it is made
// again before the apply), so the preview of an up and the update after
// it, or a Diff and the Update after it, ask each once.
type memo struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]proto.Message
}

// ask returns the answer kept for the request req of the RPC rpc to the
// binary exe configured with config, else calls call and keeps its
// answer.
func ask[R proto.Message](m *memo, exe, rpc string, config []byte, req proto.Message, call func() (R, error)) (R, error) {
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		var zero R
		return zero, err
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(exe), []byte(rpc), config, data} {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(part))))
		h.Write(part)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	m.mu.Lock()
	kept, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return kept.(R), nil
	}
	resp, err := call()
	if err != nil {
		return resp, err
	}
	m.mu.Lock()
	m.m[key] = resp
	m.mu.Unlock()
	return resp, nil
}
