package skillrepo

import (
	"testing"
)

func TestAgentAuthor(t *testing.T) {
	tests := []struct {
		name        string
		trailers    []Trailer
		author, ema string
		ok          bool
	}{
		{"review with model", []Trailer{{Key: TrailerOrigin, Value: OriginBackgroundReview}, {Key: TrailerModel, Value: "qwen3-32b"}}, "skillrepo review qwen3-32b", "review@skillrepo.invalid", true},
		{"review without model", []Trailer{{Key: TrailerOrigin, Value: OriginBackgroundReview}}, "skillrepo review", "review@skillrepo.invalid", true},
		{"curator", []Trailer{{Key: TrailerAction, Value: "archive"}, {Key: TrailerOrigin, Value: OriginCurator}}, "skillrepo curator", "curator@skillrepo.invalid", true},
		{"curator consolidation", []Trailer{{Key: TrailerOrigin, Value: OriginCurator}, {Key: TrailerModel, Value: "m"}}, "skillrepo curator m", "curator@skillrepo.invalid", true},
		{"person", []Trailer{{Key: TrailerOrigin, Value: OriginUser}, {Key: TrailerModel, Value: "ignored"}}, "", "", false},
		{"foreground without a client", []Trailer{{Key: TrailerOrigin, Value: OriginForeground}}, "", "", false},
		{"agent over MCP", []Trailer{{Key: TrailerOrigin, Value: OriginForeground}, {Key: TrailerAgent, Value: "claude-code/2.1"}}, "skillrepo mcp claude-code/2.1", "mcp@skillrepo.invalid", true},
		{"no trailers", nil, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, email, ok := agentAuthor(Message{Subject: "s", Trailers: tt.trailers})
			if name != tt.author || email != tt.ema || ok != tt.ok {
				t.Errorf("got %q %q %v, want %q %q %v", name, email, ok, tt.author, tt.ema, tt.ok)
			}
		})
	}
}
