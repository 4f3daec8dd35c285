package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestFilterFrames: valid JSON-RPC lines pass through whole, in order;
// every other line gets its error reply and is dropped.
func TestFilterFrames(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		``,
		`not json`,
		`{"jsonrpc":"2.0","id":2,"method":`,
		`[1,2]`,
		`{"id":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
		`  {"jsonrpc":"2.0","method":"notifications/initialized"}  `,
	}, "\n") // no newline at the end: the last line still counts
	var sdk, replies bytes.Buffer
	if err := filterFrames(strings.NewReader(in), &sdk, &replies); err != nil {
		t.Fatal(err)
	}
	wantSDK := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":5,"result":{}}` + "\n" + `  {"jsonrpc":"2.0","method":"notifications/initialized"}  ` + "\n"
	if sdk.String() != wantSDK {
		t.Errorf("passed on:\n%s\nwant:\n%s", sdk.String(), wantSDK)
	}
	wantReplies := []string{
		`{"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: send one JSON-RPC 2.0 object per line"},"id":null,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""},"id":3,"jsonrpc":"2.0"}`,
		`{"error":{"code":-32600,"message":"Invalid Request: no method"},"id":4,"jsonrpc":"2.0"}`,
	}
	if got := strings.Split(strings.TrimSpace(replies.String()), "\n"); strings.Join(got, "\n") != strings.Join(wantReplies, "\n") {
		t.Errorf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantReplies, "\n"))
	}
}

// TestFilterFramesTooLong: a line over the bound is answered and dropped
// without holding it, and the next line is read.
func TestFilterFramesTooLong(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"x","params":"` + strings.Repeat("a", maxFrame) + `"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"
	var sdk, replies bytes.Buffer
	if err := filterFrames(strings.NewReader(in), &sdk, &replies); err != nil {
		t.Fatal(err)
	}
	if sdk.String() != `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n" || !strings.Contains(replies.String(), "-32700") || !strings.Contains(replies.String(), `"id":1,`) {
		t.Errorf("sdk %q, replies %q", sdk.String(), replies.String())
	}
}

// A too-long line is answered with its id when its start or its end
// holds it: the client waiting for that id gets its answer.
func TestFilterFramesTooLongKeepsTheID(t *testing.T) {
	pad := strings.Repeat("a", maxFrame)
	for _, tc := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":"req-7","method":"x","params":{"p":"` + pad + `"}}`, `"id":"req-7"`},
		{`{"jsonrpc":"2.0","method":"x","params":{"p":"` + pad + `"},"id":42}`, `"id":42`},
		{`{"jsonrpc":"2.0","method":"x","params":{"p":"` + pad + `"}}`, `"id":null`},
		{`{"jsonrpc":"2.0","method":"x","params":{"p":"` + pad + `\"id\":5}"}}`, `"id":null`},
	} {
		var sdk, replies bytes.Buffer
		if err := filterFrames(strings.NewReader(tc.line+"\n"), &sdk, &replies); err != nil {
			t.Fatal(err)
		}
		if sdk.Len() != 0 || !strings.Contains(replies.String(), tc.want) {
			t.Errorf("%.60s…: reply %q, want %s", tc.line, replies.String(), tc.want)
		}
	}
}

// Ids the SDK cannot hold, params that are neither an object nor an
// array: answered as invalid requests (with id null when the id is the
// problem), never passed on to end the session.
func TestFilterFramesBadIDs(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `"id":null`},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `"id":null`},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, `"id":null`},
		{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, `"id":null`},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `"id":null`},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}`, `"id":3`},
		{`{"jsonrpc":"2.0","result":{}}`, `"id":null`},
	} {
		var sdk, replies bytes.Buffer
		if err := filterFrames(strings.NewReader(tc.line), &sdk, &replies); err != nil {
			t.Fatal(err)
		}
		if sdk.Len() != 0 || !strings.Contains(replies.String(), "-32600") || !strings.Contains(replies.String(), tc.want) {
			t.Errorf("%s: passed %q, replied %q", tc.line, sdk.String(), replies.String())
		}
	}
	for _, ok := range []string{`{"jsonrpc":"2.0","id":"x","method":"ping"}`, `{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping","params":{}}`} {
		var sdk, replies bytes.Buffer
		filterFrames(strings.NewReader(ok), &sdk, &replies)
		if replies.Len() != 0 {
			t.Errorf("%s refused: %s", ok, replies.String())
		}
	}
}

// FuzzFilterFrames: whatever the client sends, the frame reader never
// panics, every reply is one JSON-RPC error object on its own line, and
// every line passed on is valid JSON whose id the SDK can hold.
func FuzzFilterFrames(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n" + `[1,2]`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		"not json\n\n{}",
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var sdk, replies bytes.Buffer
		if err := filterFrames(bytes.NewReader(in), &sdk, &replies); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(replies.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			var m struct {
				JSONRPC string              `json:"jsonrpc"`
				ID      json.RawMessage     `json:"id"`
				Error   *struct{ Code int } `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil || m.JSONRPC != "2.0" || m.Error == nil {
				t.Fatalf("reply %q is not a JSON-RPC error", line)
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(sdk.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			var m struct {
				ID *json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("passed on %q: %v", line, err)
			}
			if m.ID != nil && !validID(*m.ID) {
				t.Fatalf("passed on an id the SDK cannot hold: %q", line)
			}
		}
	})
}
