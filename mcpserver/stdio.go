package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
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
// an invalid-request error (-32600) — an id that is not a string or an
// integer the SDK can hold (an object, an array, true, 1e400) included —
// and the server reads on. A line longer than maxFrame is answered too,
// with its id when the line's first or last bytes hold it, so the client
// that sent it is not left waiting.
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
		fr, err := readFrame(r)
		if len(bytes.TrimSpace(fr.line)) > 0 || fr.tooLong {
			if reply := checkFrame(fr); reply != nil {
				if _, werr := w.Write(reply); werr != nil {
					return werr
				}
			} else if _, werr := sdk.Write(append(fr.line, '\n')); werr != nil {
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

// frame is one line read: whole, or, past maxFrame, only its first and
// last frameEdge bytes (where a message's id is found).
type frame struct {
	line       []byte
	tooLong    bool
	head, tail []byte
}

// frameEdge is how much of a too-long line's start and end is kept.
const frameEdge = 4096

// readFrame reads one line without its newline; a line longer than
// maxFrame is read to its end, keeping only its edges (tooLong).
func readFrame(r *bufio.Reader) (fr frame, err error) {
	for {
		part, isPrefix, err := r.ReadLine()
		if !fr.tooLong && len(fr.line)+len(part) > maxFrame {
			fr.tooLong = true
			fr.head = append([]byte(nil), fr.line[:min(len(fr.line), frameEdge)]...)
			if len(fr.head) < frameEdge {
				fr.head = append(fr.head, part[:min(len(part), frameEdge-len(fr.head))]...)
			}
			fr.tail = keepTail(fr.line, nil)
			fr.line = nil
		}
		if fr.tooLong {
			fr.tail = keepTail(fr.tail, part)
		} else {
			fr.line = append(fr.line, part...)
		}
		if err != nil || !isPrefix {
			return fr, err
		}
	}
}

// keepTail returns the last frameEdge bytes of tail followed by part.
func keepTail(tail, part []byte) []byte {
	if len(part) >= frameEdge {
		return append(tail[:0], part[len(part)-frameEdge:]...)
	}
	tail = append(tail, part...)
	if len(tail) > frameEdge {
		tail = append(tail[:0:0], tail[len(tail)-frameEdge:]...)
	}
	return tail
}

// checkFrame returns the error reply for a line that is not a JSON-RPC
// message the SDK can take, or nil to pass it on.
func checkFrame(fr frame) []byte {
	if fr.tooLong {
		return rpcError(idOfTooLong(fr.head, fr.tail), -32700, fmt.Sprintf("Parse error: a message longer than %d bytes", maxFrame))
	}
	line := fr.line
	if !json.Valid(line) {
		return rpcError(nil, -32700, "Parse error: the line is not valid JSON")
	}
	var msg struct {
		JSONRPC string           `json:"jsonrpc"`
		ID      *json.RawMessage `json:"id"`
		Method  *string          `json:"method"`
		Params  *json.RawMessage `json:"params"`
		Result  *json.RawMessage `json:"result"`
		Error   *json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		return rpcError(nil, -32600, "Invalid Request: send one JSON-RPC 2.0 object per line")
	}
	var id json.RawMessage
	if msg.ID != nil {
		if !validID(*msg.ID) {
			return rpcError(nil, -32600, "Invalid Request: \"id\" must be a string or an integer")
		}
		id = *msg.ID
	}
	switch {
	case msg.JSONRPC != "2.0":
		return rpcError(id, -32600, `Invalid Request: "jsonrpc" must be "2.0"`)
	case msg.Method == nil && msg.Result == nil && msg.Error == nil:
		return rpcError(id, -32600, "Invalid Request: no method")
	case msg.Method == nil && msg.ID == nil:
		return rpcError(nil, -32600, "Invalid Request: a response without an id")
	case msg.Params != nil && !isStructured(*msg.Params):
		return rpcError(id, -32600, `Invalid Request: "params" must be an object or an array`)
	}
	return nil
}

// validID reports whether an id is one the SDK takes: a string, or an
// integer that fits in 64 bits.
func validID(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return false
	}
	if s[0] == '"' {
		var str string
		return json.Unmarshal(s, &str) == nil
	}
	_, err := strconv.ParseInt(string(s), 10, 64)
	return err == nil
}

// isStructured reports whether a JSON value is an object or an array (or
// null, which the SDK reads as no params).
func isStructured(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) > 0 && (s[0] == '{' || s[0] == '[' || string(s) == "null")
}

// tailID matches an object that ends with its id member.
// (compiled on first use, not in every command's start-up)
var tailID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?[0-9]+)\s*}\s*$`) })

// idOfTooLong finds the id of a message too long to read whole: a member
// of the top-level object before anything too long for head, or its last
// member. Nil when neither holds it (the reply's id is then null).
func idOfTooLong(head, tail []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				break // the value runs past the head
			}
			if key == "id" {
				if validID(v) {
					return v
				}
				return nil
			}
		}
	}
	if m := tailID().FindSubmatch(tail); m != nil && validID(m[1]) {
		return json.RawMessage(m[1])
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
