package main

import (
	"net/http"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/endpoint"
)

// newModelClient is the client of an OpenAI-compatible endpoint, shared by
// the review and the curator: ep (nil = the provider's default) and the
// key from $OPENAI_API_KEY.
func newModelClient(f *factory, ep *endpoint.Endpoint) *openai.Client {
	cfg := openai.DefaultConfig(f.Getenv("OPENAI_API_KEY"))
	cfg.HTTPClient = &http.Client{}
	if ep != nil {
		// The client appends its paths to BaseURL; the query and the
		// credentials are added per request, so a base with ?key=… gets
		// …/v1/chat/completions?key=…, never …/v1?key=…/chat/completions.
		cfg.BaseURL = ep.BaseURL()
		cfg.HTTPClient = ep.Doer(&http.Client{})
	}
	return openai.NewClientWithConfig(cfg)
}

// parseEndpoint parses a configured endpoint ("" = none); a bad one is a
// usage error.
func parseEndpoint(baseURL string) (*endpoint.Endpoint, error) {
	if baseURL == "" {
		return nil, nil
	}
	ep, err := endpoint.Parse(baseURL)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return ep, nil
}
