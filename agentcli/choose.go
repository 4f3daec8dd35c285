package agentcli

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Backends.
const (
	BackendAgent    = "agent"
	BackendEndpoint = "endpoint"
)

// Want is what chooses a model backend for one session's work.
type Want struct {
	// Setting is review.backend: "agent", "endpoint", or "" (auto).
	Setting string
	// Agent is the session's agent (claude-code, codex, …).
	Agent string
	// Model and BaseURL are the endpoint's, as configured (review.model
	// or SKILLREPO_MODEL; review.base_url or OPENAI_BASE_URL); APIKey
	// says OPENAI_API_KEY is set.
	Model, BaseURL string
	APIKey         bool
	// Program is the agent's program found ("" none).
	Program string
}

// EndpointConfigured reports whether the person set up an
// OpenAI-compatible endpoint: a base URL, or a model with a key for the
// provider's default address.
func (w Want) EndpointConfigured() bool {
	return w.BaseURL != "" || (w.Model != "" && w.APIKey)
}

// Choose picks the backend: the setting when there is one; else the
// endpoint when one is configured, else the agent's own program, else the
// endpoint when at least a model is named. The error says what to set.
func Choose(w Want) (string, error) {
	switch w.Setting {
	case BackendEndpoint:
		return BackendEndpoint, nil
	case BackendAgent:
		if ProgramName(w.Agent) == "" {
			return "", fmt.Errorf("review.backend is agent, but %s has no program skillrepo can run as a model backend (Claude Code, Codex, Gemini CLI, OpenCode and Copilot CLI do)", agentLabel(w.Agent))
		}
		if w.Program == "" {
			return "", fmt.Errorf("review.backend is agent, but no %s program was found on the session's PATH", ProgramName(w.Agent))
		}
		return BackendAgent, nil
	}
	switch {
	case w.EndpointConfigured():
		return BackendEndpoint, nil
	case ProgramName(w.Agent) != "" && w.Program != "":
		return BackendAgent, nil
	case w.Model != "":
		return BackendEndpoint, nil
	case ProgramName(w.Agent) != "":
		return "", fmt.Errorf("no model: no %s program was found on the session's PATH to run the review with the session's model, and no endpoint is configured (review.model and review.base_url, or SKILLREPO_MODEL and OPENAI_BASE_URL)", ProgramName(w.Agent))
	}
	return "", fmt.Errorf("no model: set review.model and review.base_url in .skillrepo/config.yaml (or SKILLREPO_MODEL and OPENAI_BASE_URL for the agent); %s has no program of its own skillrepo can use", agentLabel(w.Agent))
}

func agentLabel(agent string) string {
	if agent == "" {
		return "this session's agent"
	}
	return agent
}

// Local reports whether a base URL points at this machine (a loopback
// address or localhost): a review there competes with the agent for the
// same model server.
func Local(base string) bool {
	if base == "" {
		return false
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// LocalProvider reports whether a Codex model provider runs on this
// machine (its open-source providers).
func LocalProvider(provider string) bool {
	switch strings.ToLower(provider) {
	case "oss", "ollama", "lmstudio":
		return true
	}
	return false
}
