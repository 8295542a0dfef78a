package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// checkpointIndent is the indent of Pulumi's DIY state files.
const checkpointIndent = "    "

// elementPrefix is the indent of an element of a deployment's resources or
// pending operations in a stored checkpoint, at
// {"checkpoint": {"latest": {"resources": [here]}}}.
var elementPrefix = strings.Repeat(checkpointIndent, 4)

// elementSeparator ends one element of a list and indents the next.
var elementSeparator = []byte(",\n" + elementPrefix)

// The placeholders stand for a list's elements in the checkpoint they are
// spliced into. No resource encodes as one: a URN holds no NUL.
var (
	resourcePlaceholder  = ResourceV3{URN: "\x00"}
	operationPlaceholder = OperationV2{Resource: resourcePlaceholder}
)

// elements are the elements of one list of a stored checkpoint, each
// encoded on its own and indented as it stands there.
type elements struct {
	placeholder any
	pieces      [][]byte
	buf         bytes.Buffer
	enc         *json.Encoder
}

func newElements(placeholder any) *elements {
	l := &elements{placeholder: placeholder}
	l.enc = json.NewEncoder(&l.buf)
	l.enc.SetIndent(elementPrefix, checkpointIndent)
	return l
}

// add encodes v as the list's next element.
func (l *elements) add(v any) error {
	piece, err := l.encode(v)
	if err != nil {
		return err
	}
	l.pieces = append(l.pieces, piece)
	return nil
}

// encode returns v as json.MarshalIndent writes it in the list, in a slice
// of its own of exactly its size.
func (l *elements) encode(v any) ([]byte, error) {
	l.buf.Reset()
	if err := l.enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding the checkpoint: %w", err)
	}
	return bytes.Clone(bytes.TrimSuffix(l.buf.Bytes(), []byte("\n"))), nil // Encode ends a value with a newline
}

// An EncodedCheckpoint is a stored checkpoint in pieces: the JSON of each
// resource and pending operation, and of the rest of the checkpoint around
// them. Written out, it is what json.MarshalIndent of the whole checkpoint
// gives.
type EncodedCheckpoint struct {
	parts [][]byte // in order
	size  int
}

func (c *EncodedCheckpoint) add(part []byte) {
	c.parts = append(c.parts, part)
	c.size += len(part)
}

// Len is the checkpoint's size in bytes.
func (c *EncodedCheckpoint) Len() int { return c.size }

// WriteTo writes the checkpoint to w, piece by piece; it may be called more
// than once.
func (c *EncodedCheckpoint) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, part := range c.parts {
		m, err := w.Write(part)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Bytes returns the checkpoint in a slice of exactly its size.
func (c *EncodedCheckpoint) Bytes() []byte {
	out := make([]byte, 0, c.size)
	for _, part := range c.parts {
		out = append(out, part...)
	}
	return out
}

// splice returns rest with the placeholder of each list replaced by its
// pieces. The lists are in the order they stand in rest, each with at
// least one piece.
func splice(rest []byte, lists []*elements) (*EncodedCheckpoint, error) {
	// Placeholders are looked for from the end: what follows the lists
	// (the metadata) holds no objects a placeholder could be taken for.
	at := make([]int, len(lists))
	markers := make([][]byte, len(lists))
	end, parts := len(rest), 1
	for i := len(lists) - 1; i >= 0; i-- {
		marker, err := lists[i].encode(lists[i].placeholder)
		if err != nil {
			return nil, err
		}
		if at[i] = bytes.LastIndex(rest[:end], marker); at[i] < 0 {
			return nil, errors.New("encoding the checkpoint: a list's placeholder is missing")
		}
		markers[i], end = marker, at[i]
		parts += 2 * len(lists[i].pieces)
	}
	c := &EncodedCheckpoint{parts: make([][]byte, 0, parts)}
	from := 0
	for i, l := range lists {
		c.add(rest[from:at[i]])
		for j, piece := range l.pieces {
			if j > 0 {
				c.add(elementSeparator)
			}
			c.add(piece)
		}
		from = at[i] + len(markers[i])
	}
	c.add(rest[from:])
	return c, nil
}
