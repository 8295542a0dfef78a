package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds the body of one message: a client that announces more
// is broken, and reading it would only exhaust memory.
const maxMessage = 256 << 20

// message is a JSON-RPC 2.0 request, notification or response as read.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// isRequest reports whether m expects a response.
func (m *message) isRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

// The error codes of JSON-RPC and of the Language Server Protocol.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
)

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// conn reads and writes JSON-RPC messages framed as the Language Server
// Protocol frames them: a Content-Length header, a blank line, and the JSON
// body. Writes may come from many goroutines.
type conn struct {
	r  *textproto.Reader
	mu sync.Mutex
	w  io.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: textproto.NewReader(bufio.NewReader(r)), w: w}
}

// read returns the next message. A malformed body is a *rpcError with the
// parse error's code, after which reading may go on; other errors (the
// end of the input, a broken header) end the connection.
func (c *conn) read() (*message, error) {
	header, err := c.r.ReadMIMEHeader()
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading a message header: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(header.Get("Content-Length")))
	if err != nil || n < 0 || n > maxMessage {
		return nil, fmt.Errorf("a message header has no valid Content-Length (got %q)", header.Get("Content-Length"))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r.R, body); err != nil {
		return nil, fmt.Errorf("reading a message body of %d bytes: %w", n, err)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, errorf(codeParseError, "the message is not JSON-RPC: %v", err)
	}
	return &m, nil
}

// response is an answer to a request: a result (which may be null) or an
// error.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
}

type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *rpcError       `json:"error"`
}

// notification is a message from the server that expects no answer.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// reply answers the request id with result, or with err when it is set.
func (c *conn) reply(id json.RawMessage, result any, err *rpcError) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	if err != nil {
		return c.write(errorResponse{JSONRPC: "2.0", ID: id, Error: err})
	}
	return c.write(response{JSONRPC: "2.0", ID: id, Result: result})
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(notification{JSONRPC: "2.0", Method: method, Params: params})
}

func (c *conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}
