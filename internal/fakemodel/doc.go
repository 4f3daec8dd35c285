// Package fakemodel is a scripted stand-in for an OpenAI-compatible model
// server: a real net/http server on 127.0.0.1 that answers
// POST …/chat/completions with replies read from a script, and records
// every request it got.
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
// "raw_arguments" is sent verbatim (for malformed arguments). A reply with
// "times": N is served N times (-1: for every later request). Without
// "usage", prompt_tokens is the request body's size divided by four and
// completion_tokens the reply content's, so budgets behave plausibly. When
// the script runs out the server answers 400 "no scripted reply left", which
// a client does not retry.
//
// [Cmd] is the testscript command `fakemodel [-log FILE] SCRIPT`: it starts a
// server for the rest of the script, sets OPENAI_BASE_URL and OPENAI_API_KEY,
// and with -log appends every request body to FILE as one JSON line.
package fakemodel
