package mcpserver

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/agenttools"
)

// TestSessionServer: a server of one pass offers exactly the pass's
// tools, runs each call through the pass's Call (one at a time), answers
// a failure as a tool error, and serves every connection a listener
// takes (a program may connect twice).
func TestSessionServer(t *testing.T) {
	defs, err := agenttools.Definitions([]string{agenttools.SkillsList, agenttools.SkillManage})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []string
	srv, err := NewSession(&Session{Tools: defs, Instructions: "review tools", Call: func(_ context.Context, name, args string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, name+" "+args)
		if name == agenttools.SkillManage {
			return `{"success":false,"error":"refused"}`, true
		}
		return `{"success":true,"skills":[]}`, false
	}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "sr-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ln, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Skipf("no unix sockets: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.ServeListener(ctx, ln) }()

	for round := 0; round < 2; round++ {
		conn, err := net.Dial("unix", filepath.Join(dir, "s"))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "program", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		if err != nil {
			t.Fatal(err)
		}
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		slices.Sort(names)
		if strings.Join(names, ",") != "skill_manage,skills_list" {
			t.Errorf("tools = %v", names)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: agenttools.SkillManage, Arguments: json.RawMessage(`{"operations":[]}`)})
		if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != `{"success":false,"error":"refused"}` {
			t.Errorf("a refusal: %+v %v", res, err)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: agenttools.SkillsList, Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Errorf("a read: %+v %v", res, err)
		}
		cs.Close()
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if len(calls) != 4 || calls[0] != `skill_manage {"operations":[]}` || calls[1] != "skills_list {}" {
		t.Errorf("calls = %q", calls)
	}
}
