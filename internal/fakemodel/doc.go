// Package fakemodel is a scripted stand-in for a model provider: a real
// net/http server on 127.0.0.1 that answers, with replies read from a
// script, the four protocols our code and the agent programs speak:
//
//   - OpenAI chat completions, POST …/chat/completions (our review,
//     curator and goal judge, not streamed; OpenCode's OpenAI-compatible
//     provider, streamed with "stream": true: data-only chunks, then
//     data: [DONE]);
//   - Anthropic Messages, POST …/v1/messages (Claude Code, which streams
//     server-sent events: message_start, content blocks with text_delta or
//     input_json_delta, message_delta, message_stop);
//   - OpenAI Responses, POST …/v1/responses (Codex, streamed:
//     response.created, output_item.added / the deltas / output_item.done
//     per item, response.completed with the usage);
//   - Google's Generative Language API, POST …/models/MODEL:generateContent
//     and :streamGenerateContent?alt=sse (Gemini CLI, pointed here by
//     GOOGLE_GEMINI_BASE_URL: data-only events, function calls with object
//     arguments in the last chunk), and :countTokens;
//
// and records every request it got. A [Sink] is a proxy that forwards
// nothing, for proving an agent program sent nothing off the machine.
//
// It exists so the review loop is tested over the same wire protocol a
// real provider speaks (JSON bodies through go-openai's HTTP client, status
// codes, timeouts), never by calling the loop's functions with canned
// structs.
//
// A script is JSON: a list of replies, or an object {"replies": [...]}.
// Replies are served in order, one per request:
//
//	[
//	  {"tool_calls": [{"name": "skills_list", "arguments": {}}]},
//	  {"tool_calls": [{"name": "skill_view", "raw_arguments": "{\"name\": "}]},
//	  {"status": 500, "error": "overloaded"},
//	  {"delay_ms": 2000, "content": "late"},
//	  {"content": "Nothing to save.", "usage": {"prompt_tokens": 900, "completion_tokens": 4}}
//	]
//
// "arguments" is any JSON value, sent as the call's argument string;
// "raw_arguments" is sent verbatim (for malformed arguments). A reply
// becomes the protocol's shape: content is the text (a text block, a
// message item, a text part), each tool call a tool_call, a tool_use
// block, a function_call item or a functionCall part ("namespace" sets a Responses call's namespace, as
// Codex names an MCP server's tools: {"name": "skill_manage", "namespace":
// "mcp__skillrepo"}; Claude Code calls them "mcp__skillrepo__skill_manage").
//
// An agent program sends requests of its own beside the conversation (a
// title, a probe). "match": TEXT makes a reply answer only a request whose
// body holds TEXT, "unless": TEXT only one whose body does not, "api":
// "chat" | "messages" | "responses" | "gemini" only that protocol; a request takes
// the first reply, from the current one on, that is not used up and
// matches, and the replies it skipped stay for later requests. A reply with
// "times": N is served N times (-1: for every later request). Without
// "usage", prompt_tokens is the request body's size divided by four and
// completion_tokens the reply content's, so budgets behave plausibly. When
// the script runs out the server answers 400 "no scripted reply left", which
// a client does not retry.
//
// [Cmd] is the testscript command `fakemodel [-log FILE] SCRIPT`: it starts a
// server for the rest of the script, sets OPENAI_BASE_URL and OPENAI_API_KEY,
// and with -log appends every request body to FILE as one JSON line (a
// chat request's body as it came; others as {"api", "path", "query",
// "body"}).
package fakemodel
