package cmdutil

import (
	"net/http"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/goals"
	"github.com/skillrepo/skillrepo/internal/endpoint"
)

// NewModelClient is the client of an OpenAI-compatible endpoint, shared by
// the review, the curator and the goal judge: baseURL ("" = the
// provider's default) and the key from $OPENAI_API_KEY. A base URL with a
// query or credentials is parsed by package endpoint, so paths are joined
// before the query and every error message redacts them.
func NewModelClient(f *Factory, baseURL string) (*openai.Client, error) {
	var ep *endpoint.Endpoint
	if baseURL != "" {
		var err error
		if ep, err = endpoint.Parse(baseURL); err != nil {
			return nil, UsageErrorf("%v", err)
		}
	}
	return ModelClient(f, ep), nil
}

// ModelClient is NewModelClient for an endpoint already parsed (nil: the
// provider's default).
func ModelClient(f *Factory, ep *endpoint.Endpoint) *openai.Client {
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

// JudgeClient is ModelClient for the goal judge, whose requests go with
// temperature 0 (go-openai drops a zero from the body; the doer puts it
// back).
func JudgeClient(f *Factory, baseURL string) (*openai.Client, error) {
	var ep *endpoint.Endpoint
	if baseURL != "" {
		var err error
		if ep, err = endpoint.Parse(baseURL); err != nil {
			return nil, UsageErrorf("%v", err)
		}
	}
	cfg := openai.DefaultConfig(f.Getenv("OPENAI_API_KEY"))
	var doer goals.Doer = &http.Client{}
	if ep != nil {
		cfg.BaseURL = ep.BaseURL()
		doer = ep.Doer(&http.Client{})
	}
	cfg.HTTPClient = goals.ZeroTemperature(doer)
	return openai.NewClientWithConfig(cfg), nil
}
