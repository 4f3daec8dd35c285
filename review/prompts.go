package review

import (
	"embed"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
)

// The review instructions are text files so they can be read and reviewed
// as prose; they paraphrase the reference's prompts (docs/reference-behaviour.md §3) in our own
// words.
//
//go:embed prompts
var promptFiles embed.FS

func promptText(name string) string {
	data, err := promptFiles.ReadFile("prompts/" + name)
	if err != nil {
		// The files are compiled in; a missing one is a build mistake that
		// the tests catch, not a runtime condition.
		return ""
	}
	return strings.TrimRight(string(data), "\n")
}

// buildPrompt assembles the last user message of a review: the memory,
// skill or combined instructions (docs/reference-behaviour.md §2.1: skills alone, or neither, get
// the skill prompt), the rules about the transcript and the tools, and the
// project the review may read (its folder, when known), and the user's
// focus when the review was asked for by hand.
func buildPrompt(reviewMemory, reviewSkills bool, tools []string, project, focus string) string {
	var p string
	switch {
	case reviewMemory && reviewSkills:
		p = promptText("combined.md")
	case reviewMemory:
		p = promptText("memory.md")
	default:
		p = promptText("skill.md")
	}
	p = strings.ReplaceAll(p, "{{LESSONS}}", promptText("lessons.md"))
	p += strings.ReplaceAll(promptText("rules.md"), "{{TOOLS}}", "these tools: "+strings.Join(tools, ", "))
	if project != "" {
		p += strings.ReplaceAll(promptText("project.md"), "{{PROJECT}}", project)
	}
	if focus = strings.TrimSpace(focus); focus != "" {
		p += strings.ReplaceAll(promptText("focus.md"), "{{FOCUS}}", focus)
	}
	return p
}

// toolDefs returns the definitions of the named tools, in that order, in
// the chat-completions shape.
func toolDefs(names []string) ([]openai.Tool, error) {
	defs, err := agenttools.Definitions(names)
	if err != nil {
		return nil, err
	}
	tools := make([]openai.Tool, len(defs))
	for i, d := range defs {
		tools[i] = openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: d.Name, Description: d.Description, Parameters: d.Parameters,
		}}
	}
	return tools, nil
}
