package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/promptindex"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Resources: the prompt index (skillrepo://index in markdown, and
// skillrepo://index/<format> for each form) and each active skill's
// SKILL.md (skillrepo://skill/<name>), always as the main branch has them
// when read. Reading a resource is the client's doing, not the model's,
// so it counts no use.

const (
	indexURI       = "skillrepo://index"
	skillURIPrefix = "skillrepo://skill/"
)

// indexForms are the index resources: URI, rendering, description.
var indexForms = []struct{ uri, format, mime, desc string }{
	{indexURI, promptindex.Markdown, "text/markdown", "The skills index, one line per skill (name: description, file) — what to put in a system prompt."},
	{indexURI + "/markdown", promptindex.Markdown, "text/markdown", "The skills index as a markdown list (Codex's form)."},
	{indexURI + "/hermes", promptindex.Hermes, "text/plain", "The skills index grouped by category (Hermes' form)."},
	{indexURI + "/xml", promptindex.XML, "application/xml", "The skills index as <available_skills> XML (the Agent Skills reference form)."},
}

// addIndexResources (re)registers the index resources; registering again
// makes the SDK send resources/list_changed to the clients.
func (s *Server) addIndexResources() {
	for _, f := range indexForms {
		format := f.format
		s.server.AddResource(&mcp.Resource{URI: f.uri, Name: strings.TrimPrefix(f.uri, "skillrepo://"), Description: f.desc, MIMEType: f.mime},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				s.mu.Lock()
				defer s.mu.Unlock()
				res, err := promptindex.Render(s.lib, promptindex.Options{Rev: s.lib.MainBranch(), Format: format})
				if err != nil {
					return nil, err
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: f.mime, Text: res.Text}}}, nil
			})
	}
}

// readSkill reads skillrepo://skill/<name> (name or category/name).
func (s *Server) readSkill(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name := strings.Trim(strings.TrimPrefix(uri, skillURIPrefix), "/")
	if name == "" || strings.Contains(name, "..") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, err := s.lib.Snapshot(s.lib.MainBranch())
	if err != nil {
		return nil, err
	}
	si, err := snap.FindSkill(name)
	if errors.Is(err, skillrepo.ErrNotFound) || (err == nil && si.Archived) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	data, err := snap.ReadFile(path.Join(si.Dir, skill.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(data)}}}, nil
}

// refresh brings the resources up to main's tip: a resource for each
// active skill, the index re-registered so clients hear the list changed.
// It reports whether the tip moved since the last refresh. The caller
// holds s.mu.
func (s *Server) refresh() (bool, error) {
	tip, err := s.lib.MainTip()
	if errors.Is(err, skillrepo.ErrNotFound) {
		return false, nil // an empty library: nothing to show yet
	}
	if err != nil {
		return false, err
	}
	if tip.String() == s.tip {
		return false, nil
	}
	// Through the tools' adapter, whose view of this commit the next
	// call reuses: the skills are listed once per commit.
	v, err := s.tools.View(context.Background(), tip.String())
	if err != nil {
		return false, err
	}
	skills, err := v.Skills()
	if err != nil {
		return false, err
	}
	first := s.tip == ""
	s.tip = tip.String()
	now := map[string]bool{}
	for _, si := range skills {
		if now[si.Name] {
			continue
		}
		now[si.Name] = true
		if !s.resources[si.Name] {
			s.server.AddResource(&mcp.Resource{URI: skillURIPrefix + si.Name, Name: si.Name, MIMEType: "text/markdown",
				Description: "SKILL.md of " + si.Dir}, s.readSkill)
		}
	}
	var gone []string
	for name := range s.resources {
		if !now[name] {
			gone = append(gone, skillURIPrefix+name)
		}
	}
	if len(gone) > 0 {
		s.server.RemoveResources(gone...)
	}
	s.resources = now
	if !first {
		s.addIndexResources() // any commit may change the index: say the list changed
	}
	return !first, nil
}

// notifyUpdated tells subscribers their resources changed.
func (s *Server) notifyUpdated(ctx context.Context) {
	s.mu.Lock()
	var uris []string
	for uri := range s.subs {
		uris = append(uris, uri)
	}
	s.mu.Unlock()
	for _, uri := range uris {
		if err := s.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			s.log.Warn("notify resource updated", "uri", uri, "error", err)
		}
	}
}

func (s *Server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs[req.Params.URI] = true
	return nil
}

func (s *Server) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.subs, req.Params.URI)
	return nil
}
