// skillrepo's OpenCode plugin, written by `skillrepo hooks install --opencode`
// and removed by `skillrepo hooks uninstall --opencode` (do not edit: a
// reinstall rewrites it). It hands OpenCode's events to skillrepo as hook
// events, the JSON on standard input of `skillrepo hooks run opencode
// <event>`: a session's start (its memory goes into the system prompt),
// each tool call (a skill loaded is counted), each prompt, the session
// going idle (its turn ended) and its deletion. A missing skillrepo or a
// failing hook never stops OpenCode. See docs/agents.md, "OpenCode".
import { spawn } from "node:child_process";
import { mkdir, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const SKILLREPO = {"command":"skillrepo","library":"skills"};

const TIMEOUT = { SessionStart: 10, PostToolUse: 5, UserPromptSubmit: 5, Stop: 45, SessionEnd: 5 };

// OpenCode keeps its sessions in a database; each one that goes idle is
// written, as `opencode export` prints it, where skillrepo reads it.
const SESSIONS = path.join(process.env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share"), "opencode", "skillrepo");
const VALID_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const SkillrepoPlugin = async ({ client, directory }) => {
  // In skillrepo's own review of a session (OpenCode run as its model
  // backend) nothing is handed to skillrepo: a review never queues a
  // review of itself, nor leaves a session file.
  if (process.env.SKILLREPO_IN_REVIEW) return {};
  const cwd = directory || process.cwd();
  const transcripts = new Map();

  // save writes the session's messages (OpenCode's own API) to
  // SESSIONS/<id>.json through a temporary file; "" when it cannot.
  const save = async (id) => {
    if (!VALID_ID.test(id) || !client || !client.session) return "";
    try {
      const r = await client.session.messages({ path: { id }, query: { directory: cwd } });
      const messages = r && (Array.isArray(r) ? r : r.data);
      if (!Array.isArray(messages)) return "";
      await mkdir(SESSIONS, { recursive: true, mode: 0o700 });
      const file = path.join(SESSIONS, id + ".json");
      const tmp = file + "." + process.pid + ".tmp";
      await writeFile(tmp, JSON.stringify({ info: { id, directory: cwd }, messages }), { mode: 0o600 });
      await rename(tmp, file);
      transcripts.set(id, file);
      return file;
    } catch (e) {
      return "";
    }
  };
  const library = path.resolve(cwd, SKILLREPO.library);
  const context = new Map();
  // A session's start, until it answered: its first system prompt waits
  // for the memory (OpenCode does not wait for the event's handler).
  const starting = new Map();
  const models = new Map();

  const run = (event, payload) =>
    new Promise((resolve) => {
      let out = "";
      let child;
      try {
        child = spawn(SKILLREPO.command, ["hooks", "run", "opencode", event, "--library", library], {
          cwd,
          stdio: ["pipe", "pipe", "ignore"],
        });
      } catch (e) {
        resolve("");
        return;
      }
      const timer = setTimeout(() => child.kill(), TIMEOUT[event] * 1000);
      child.on("error", () => {
        clearTimeout(timer);
        resolve("");
      });
      child.stdout.on("data", (d) => (out += d));
      child.on("close", () => {
        clearTimeout(timer);
        resolve(out);
      });
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify({ hook_event_name: event, cwd, ...payload }));
    });

  const reply = (out) => {
    try {
      return JSON.parse(out) || {};
    } catch (e) {
      return {};
    }
  };

  // OpenCode hands a plugin its events without waiting for the handler,
  // and `opencode run` ends its process as soon as the session is idle:
  // the idle session's save and its Stop are kept here, and dispose (which
  // OpenCode awaits before it exits) waits for them.
  const pending = new Set();
  const track = (p) => {
    pending.add(p);
    p.finally(() => pending.delete(p));
    return p;
  };

  const onEvent = async (event) => {
    const p = event.properties || {};
    switch (event.type) {
      case "session.created": {
        const id = p.info && p.info.id;
        if (!id) return;
        const started = run("SessionStart", { session_id: id, source: "startup" }).then((out) => {
          const r = reply(out);
          const extra = r.hookSpecificOutput && r.hookSpecificOutput.additionalContext;
          if (extra) context.set(id, extra);
        });
        starting.set(id, started);
        await started;
        return;
      }
      case "session.idle": {
        if (!p.sessionID) return;
        const transcript_path = await save(p.sessionID);
        await run("Stop", { session_id: p.sessionID, model: models.get(p.sessionID) || "", transcript_path });
        return;
      }
      case "session.deleted": {
        const id = p.info && p.info.id;
        if (!id) return;
        const transcript_path = transcripts.get(id) || "";
        context.delete(id);
        starting.delete(id);
        models.delete(id);
        transcripts.delete(id);
        await run("SessionEnd", { session_id: id, reason: "deleted", transcript_path });
        return;
      }
    }
  };

  return {
    event: ({ event }) => track(onEvent(event).catch(() => {})),
    dispose: async () => {
      await Promise.allSettled([...pending]);
    },
    "chat.message": async (input, output) => {
      if (input.model) models.set(input.sessionID, `${input.model.providerID}/${input.model.modelID}`);
      const prompt = (output.parts || [])
        .filter((part) => part.type === "text" && !part.synthetic)
        .map((part) => part.text)
        .join("\n");
      await run("UserPromptSubmit", { session_id: input.sessionID, prompt, model: models.get(input.sessionID) || "" });
    },
    "tool.execute.after": async (input) => {
      await run("PostToolUse", {
        session_id: input.sessionID,
        tool_name: input.tool,
        tool_input: input.args || {},
        tool_use_id: input.callID,
        model: models.get(input.sessionID) || "",
      });
    },
    "experimental.chat.system.transform": async (input, output) => {
      const started = input.sessionID && starting.get(input.sessionID);
      if (started) {
        await started;
        starting.delete(input.sessionID);
      }
      const extra = input.sessionID && context.get(input.sessionID);
      if (extra) output.system.push(extra);
    },
  };
};
