package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrame bounds one inbound message, so a client cannot make the server
// hold an unbounded line in memory (the SDK's own default).
const maxFrame = mcp.DefaultMaxLineLength

// Serve serves one client over newline-delimited JSON-RPC on in and out
// (a client's stdio) until in ends or ctx does; the end of in is a clean
// end, not an error.
//
// The SDK ends a session at the first line it cannot decode; a client's
// one bad line must not take the agent's tools away for the rest of its
// session. So each line is checked first: one that is not JSON gets a
// JSON-RPC parse error (-32700), one that is JSON but no JSON-RPC message
// an invalid-request error (-32600), and the server reads on.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(filterFrames(in, pw, w)) }()
	err := s.Run(ctx, &mcp.IOTransport{Reader: pr, Writer: w})
	pr.Close()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.ErrClosedPipe) || ctx.Err() != nil {
		return nil
	}
	return err
}

// lockedWriter keeps the SDK's messages and the filter's error replies
// whole: each is one Write of a full line.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filterFrames copies the valid JSON-RPC lines of in to sdk and answers
// the others on w. It returns nil at the end of in.
func filterFrames(in io.Reader, sdk io.Writer, w io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if reply := checkFrame(line, tooLong); reply != nil {
				if _, werr := w.Write(reply); werr != nil {
					return werr
				}
			} else if _, werr := sdk.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline; a line longer than
// maxFrame is read to its end and dropped (tooLong).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		part, isPrefix, err := r.ReadLine()
		if !tooLong {
			if len(line)+len(part) > maxFrame {
				tooLong, line = true, nil
			} else {
				line = append(line, part...)
			}
		}
		if err != nil || !isPrefix {
			return line, tooLong, err
		}
	}
}

// checkFrame returns the error reply for a line that is not a JSON-RPC
// message, or nil to pass it on.
func checkFrame(line []byte, tooLong bool) []byte {
	if tooLong {
		return rpcError(nil, -32700, fmt.Sprintf("Parse error: a message longer than %d bytes", maxFrame))
	}
	if !json.Valid(line) {
		return rpcError(nil, -32700, "Parse error: the line is not valid JSON")
	}
	var msg struct {
		JSONRPC string           `json:"jsonrpc"`
		ID      *json.RawMessage `json:"id"`
		Method  *string          `json:"method"`
		Result  *json.RawMessage `json:"result"`
		Error   *json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		return rpcError(nil, -32600, "Invalid Request: send one JSON-RPC 2.0 object per line")
	}
	var id json.RawMessage
	if msg.ID != nil {
		id = *msg.ID
	}
	switch {
	case msg.JSONRPC != "2.0":
		return rpcError(id, -32600, `Invalid Request: "jsonrpc" must be "2.0"`)
	case msg.Method == nil && msg.Result == nil && msg.Error == nil:
		return rpcError(id, -32600, "Invalid Request: no method")
	}
	return nil
}

func rpcError(id json.RawMessage, code int, message string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	return append(data, '\n')
}
