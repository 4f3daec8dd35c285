package agentcli

import (
	"slices"
	"testing"
)

func TestJSONLines(t *testing.T) {
	type ev struct {
		Type string `json:"type"`
		N    int    `json:"n"`
	}
	out := []byte("{\"type\":\"a\",\"n\":1}\n\nWarning: not JSON\n  {\"type\":\"b\",\"n\":2}\r\n{\"type\":\"c\",\"n\":\"x\"}\n{\"type\":\"d\",\"n\":4}")
	var got []ev
	for e := range jsonLines[ev](out) {
		got = append(got, e)
	}
	want := []ev{{"a", 1}, {"b", 2}, {"d", 4}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v (blank, non-JSON and ill-typed lines passed over, the last line without a newline kept)", got, want)
	}
	// Stopping early stops the walk.
	n := 0
	for range jsonLines[ev](out) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break: %d events", n)
	}
}
