package main

import (
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// newModelClient is the client of an OpenAI-compatible endpoint, shared by
// the review and the curator: baseURL ("" = the provider's default) and
// the key from $OPENAI_API_KEY.
func newModelClient(f *factory, baseURL string) *openai.Client {
	cfg := openai.DefaultConfig(f.Getenv("OPENAI_API_KEY"))
	if baseURL != "" {
		cfg.BaseURL = strings.TrimRight(baseURL, "/")
	}
	cfg.HTTPClient = &http.Client{}
	return openai.NewClientWithConfig(cfg)
}
