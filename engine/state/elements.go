package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// checkpointIndent is the indent of Pulumi's DIY state files.
const checkpointIndent = "    "

// elementPrefix is the indent of an element of a deployment's resources or
// pending operations in a stored checkpoint, at
// {"checkpoint": {"latest": {"resources": [here]}}}.
var elementPrefix = strings.Repeat(checkpointIndent, 4)

// elementSeparator ends one element of a list and indents the next.
var elementSeparator = ",\n" + elementPrefix

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
	size        int // of the pieces joined by elementSeparator
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
	if len(l.pieces) > 0 {
		l.size += len(elementSeparator)
	}
	l.pieces = append(l.pieces, piece)
	l.size += len(piece)
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

// splice returns rest with the placeholder of each list replaced by its
// elements, in a slice of exactly the checkpoint's size. The lists are in
// the order they stand in rest, each with at least one element; each
// element is dropped once it is copied.
func splice(rest []byte, lists []*elements) ([]byte, error) {
	// Placeholders are looked for from the end: what follows the lists
	// (the metadata) holds no objects a placeholder could be taken for.
	at := make([]int, len(lists))
	markers := make([][]byte, len(lists))
	size, end := len(rest), len(rest)
	for i := len(lists) - 1; i >= 0; i-- {
		marker, err := lists[i].encode(lists[i].placeholder)
		if err != nil {
			return nil, err
		}
		if at[i] = bytes.LastIndex(rest[:end], marker); at[i] < 0 {
			return nil, errors.New("encoding the checkpoint: a list's placeholder is missing")
		}
		markers[i], end = marker, at[i]
		size += lists[i].size - len(marker)
	}
	out := make([]byte, 0, size)
	from := 0
	for i, l := range lists {
		out = append(out, rest[from:at[i]]...)
		for j, piece := range l.pieces {
			if j > 0 {
				out = append(out, elementSeparator...)
			}
			out = append(out, piece...)
			l.pieces[j] = nil
		}
		from = at[i] + len(markers[i])
	}
	return append(out, rest[from:]...), nil
}
