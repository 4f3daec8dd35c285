package mcpserver

import (
	"bytes"
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
	if sdk.String() != `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n" || !strings.Contains(replies.String(), "-32700") {
		t.Errorf("sdk %q, replies %q", sdk.String(), replies.String())
	}
}
