package goals

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Doer is an HTTP client, as go-openai's configuration takes one.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// ZeroTemperature wraps an OpenAI client's HTTP doer so a chat completion
// whose body names no temperature is sent with "temperature": 0. The
// judge asks for 0 (a verdict should not depend on sampling), but
// go-openai's request type marks the field omitempty, so a zero never
// reaches the server, which then samples at its default (1 for OpenAI).
// A body that names a temperature, or that is not a JSON object, goes as
// it is.
func ZeroTemperature(d Doer) Doer { return zeroTemperature{d} }

type zeroTemperature struct{ next Doer }

func (z zeroTemperature) Do(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") || req.Body == nil {
		return z.next.Do(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read the judge's request: %w", err)
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) == nil {
		if _, ok := fields["temperature"]; !ok {
			fields["temperature"] = json.RawMessage("0")
			if b, err := json.Marshal(fields); err == nil {
				body = b
			}
		}
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return z.next.Do(req)
}
