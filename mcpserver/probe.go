package mcpserver

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Probe starts an installed server entry as an MCP client starts it
// (command and args, the given environment and folder, the protocol on
// standard input and output), lists its tools and stops it. It says
// whether the agent would get our tools from the entry.
func Probe(ctx context.Context, command string, args, env []string, dir string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, command, args...)
	cmd.Env, cmd.Dir = env, dir
	client := mcp.NewClient(&mcp.Implementation{Name: "skillrepo-doctor", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("the server did not start: %w", err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("the server did not list its tools: %w", err)
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names, nil
}
