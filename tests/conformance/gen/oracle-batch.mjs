// oracle-batch.mjs: the answers of the REAL OpenClaw for many conformance cases in one
// node process (the per-call oracle, ../../../../shared/openclaw/oracle.mjs, spends ~3 s
// importing OpenClaw for every case; this one imports once).
//
//   run through oracle-batch.sh: stdin = JSONL cases {id, config_text, agent, session,
//   subagent, files?}; stdout = JSONL {id, expect, expect_extra, info} in the corpus format of
//   ../../../../shared/conformance/README.md.
//
// The steps are those of oracle.mjs, in the same order, with the corpus environment:
// HOME=/tmp/sbx-conf-home (wiped before every case), cwd=HOME, OPENCLAW_STATE_DIR unset.
// Each case's config goes to a fresh path outside HOME and is loaded unpinned
// (getRuntimeConfig({pin:false})), so no case sees another's config.
// Container names are computed as ensureSandboxContainer does (slugifySessionKey +
// buildSandboxContainerName, podman prefix + "podman-").
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const OC_ROOT = process.env.OC_ROOT;
const DIST = path.join(OC_ROOT, "dist");
const HOME = process.env.HOME;
const CFG_ROOT = process.env.ORACLE_CFG_ROOT;

let distFiles;
const fileText = new Map();
function readDist(f) {
  if (!fileText.has(f)) fileText.set(f, fs.readFileSync(path.join(DIST, f), "utf8"));
  return fileText.get(f);
}
async function internal(name, hint) {
  distFiles ??= fs.readdirSync(DIST).filter((f) => f.endsWith(".mjs"));
  const candidates = hint ? distFiles.filter((f) => f.startsWith(hint)).concat(distFiles) : distFiles;
  const defRe = new RegExp(`(?:^|\\n)(?:async )?function ${name}\\(|(?:^|\\n)const ${name} = `);
  for (const f of candidates) {
    const txt = readDist(f);
    if (!defRe.test(txt)) continue;
    const m = txt.match(/export \{([^}]*)\};?\s*$/);
    if (!m) continue;
    for (const part of m[1].split(",")) {
      const [local, alias] = part.trim().split(/\s+as\s+/);
      if (local === name) {
        const mod = await import(pathToFileURL(path.join(DIST, f)).href);
        return mod[alias ?? local];
      }
    }
  }
  throw new Error(`oracle-batch: could not locate internal function ${name} in ${DIST}`);
}

// OpenClaw logs to the console; collect it per case as the notes, keep stdout for JSONL.
let notes = [];
const out = process.stdout.write.bind(process.stdout);
const capture = (...a) => notes.push(a.map(String).join(" "));
console.log = capture;
console.info = capture;
console.warn = capture;
console.error = capture;

const getRuntimeConfig = await internal("getRuntimeConfig", "io.runtime-");
const normalizeAgentId = await internal("normalizeAgentId", "agent-id-");
const resolveSessionAgentId = await internal("resolveSessionAgentId", "agent-scope-");
const resolveConfiguredAgentId = await internal("resolveConfiguredAgentId", "agent-scope-config-");
const resolveAgentWorkspaceDir = await internal("resolveAgentWorkspaceDir", "agent-scope-config-");
const resolveAgentMainSessionKey = await internal("resolveAgentMainSessionKey", "main-session-");
const buildAgentMainSessionKey = await internal("buildAgentMainSessionKey", "session-key-");
const normalizeMainKey = await internal("normalizeMainKey", "session-key-");
const listAgentIds = await internal("listAgentIds", "agent-scope-config-");
const resolveSandboxRuntimeStatus = await internal("resolveSandboxRuntimeStatus", "runtime-status-");
const resolveSandboxConfigForAgent = await internal("resolveSandboxConfigForAgent", "config-");
const resolveSandboxToolPolicyForAgent = await internal("resolveSandboxToolPolicyForAgent", "tool-policy-");
const resolveSandboxWorkspaceLayoutPaths = await internal("resolveSandboxWorkspaceLayoutPaths", "shared-");
const slugifySessionKey = await internal("slugifySessionKey", "shared-");
const buildSandboxContainerName = await internal("buildSandboxContainerName", "shared-");
const getSandboxBackendWorkdirResolver = await internal("getSandboxBackendWorkdirResolver", "backend-");
const buildSandboxFsMounts = await internal("buildSandboxFsMounts", "fs-paths-");
const resolveConversationCapabilityProfile = await internal("resolveConversationCapabilityProfile", "conversation-capability-profile-");
const projectConversationToolNames = await internal("projectConversationToolNames", "conversation-tool-policy-pipeline-");
const resolveEffectiveToolPolicy = await internal("resolveEffectiveToolPolicy", "agent-tools.policy-");
const CORE_TOOL_GROUPS = await internal("CORE_TOOL_GROUPS", "tool-catalog-");
const DEFAULT_TOOL_DENY = await internal("DEFAULT_TOOL_DENY", "constants-");

const coreNames = new Set();
for (const list of Object.values(CORE_TOOL_GROUPS)) for (const n of list) coreNames.add(n);
const channelToolNames = DEFAULT_TOOL_DENY.filter((n) => !coreNames.has(n));
const allNames = [...coreNames, ...channelToolNames, "sandbox_exec", "sandbox_process", "structured_output"];
const undef2null = (v) => JSON.parse(JSON.stringify(v, (k, x) => (x === undefined ? null : x)));

function errorCode(err, stage) {
  const msg = String(err?.message ?? err);
  if (stage === "load") {
    if (/JSON5|parse/i.test(msg) && !/Invalid config/.test(msg)) return "JSON5_PARSE";
    return err?.code && err.code !== "INVALID_CONFIG" ? String(err.code) : "INVALID_CONFIG";
  }
  if (/Unknown agent id/.test(msg)) return "UNKNOWN_AGENT";
  if (/Multiple agents are configured/.test(msg)) return "AGENT_SELECTION_REQUIRED";
  return err?.code ? String(err.code) : "ERROR";
}

function runCase(c, cfgPath) {
  let cfg;
  try {
    cfg = getRuntimeConfig({ pin: false });
  } catch (err) {
    const msg = String(err?.message ?? err).split(cfgPath).join("<CONFIG>");
    const lines = msg.split("\n");
    const issues = lines.slice(1).map((l) => l.replace(/^\s*-\s*/, "").trim()).filter(Boolean);
    return { expect: { error: true, code: errorCode(err, "load"), message: lines[0], ...(issues.length ? { issues } : {}) }, exit: 3 };
  }
  try {
    return resolveCase(c, cfg);
  } catch (err) {
    const stack = String(err?.stack ?? "").split("\n").slice(1, 6).map((l) => l.trim().replace(/\(.*\/dist\//, "("));
    return { expect: { error: true, code: errorCode(err, "resolve"), message: String(err?.message ?? err) }, stack, exit: 1 };
  }
}

function resolveCase(c, cfg) {
  const agentArg = c.agent, sessionArg = c.session;
  const requestedAgentId = agentArg != null ? normalizeAgentId(agentArg) : undefined;
  const requestedSession = sessionArg != null && sessionArg.trim() ? sessionArg.trim() : undefined;
  if (requestedAgentId) resolveConfiguredAgentId(cfg, requestedAgentId);
  const agentId = resolveSessionAgentId({ sessionKey: requestedSession, config: cfg, agentId: requestedAgentId });
  let sessionKey;
  if (!requestedSession) sessionKey = resolveAgentMainSessionKey({ cfg, agentId });
  else if (requestedSession.includes(":") || requestedSession === "global") sessionKey = requestedSession;
  else sessionKey = buildAgentMainSessionKey({ agentId, mainKey: normalizeMainKey(requestedSession) });
  const originalSessionKey = sessionKey;
  if (c.subagent && !/(^|:)subagent:/i.test(sessionKey.replace(/^agent:[^:]+:/, ""))) {
    sessionKey = `agent:${agentId}:subagent:00000000-0000-4000-8000-0000000000aa`;
  }
  const runtime = resolveSandboxRuntimeStatus({ cfg, sessionKey, agentId, classificationAgentId: agentId });
  const configured = resolveSandboxConfigForAgent(cfg, agentId);
  const sandboxCfg = runtime.sandboxRequired
    ? { ...configured, scope: "agent", workspaceAccess: runtime.workspaceAccess }
    : configured;
  const agentWorkspaceDir = resolveAgentWorkspaceDir(cfg, agentId);
  const layout = resolveSandboxWorkspaceLayoutPaths({
    cfg: sandboxCfg,
    agentId,
    isolationSubject: runtime.isolationSubject,
    rawSessionKey: sessionKey === "global" ? buildAgentMainSessionKey({ agentId, mainKey: normalizeMainKey(cfg.session?.mainKey) }) : sessionKey,
    workspaceDir: agentWorkspaceDir,
  });
  const containerWorkdir = getSandboxBackendWorkdirResolver(sandboxCfg.backend)?.({
    sessionKey,
    scopeKey: layout.scopeKey,
    workspaceDir: layout.workspaceDir,
    agentWorkspaceDir: layout.agentWorkspaceDir,
    skillsWorkspaceDir: layout.skillsWorkspaceDir,
    cfg: sandboxCfg,
  });
  const backendLc = sandboxCfg.backend.toLowerCase();
  const isContainer = ["docker", "podman"].includes(backendLc);
  const mounts = runtime.sandboxed && isContainer && containerWorkdir
    ? buildSandboxFsMounts({
        workspaceDir: layout.workspaceDir,
        agentWorkspaceDir: layout.agentWorkspaceDir,
        skillsWorkspaceDir: layout.skillsWorkspaceDir,
        workspaceAccess: sandboxCfg.workspaceAccess,
        containerName: "",
        containerWorkdir,
        docker: sandboxCfg.docker,
      })
    : [];
  let containerName = null;
  if (runtime.sandboxed && isContainer) {
    const slug = sandboxCfg.scope === "shared" ? "shared" : slugifySessionKey(layout.scopeKey);
    const prefix = backendLc === "podman" ? `${sandboxCfg.docker.containerPrefix}podman-` : sandboxCfg.docker.containerPrefix;
    containerName = buildSandboxContainerName(prefix, slug);
  }
  const sandboxToolPolicy = runtime.sandboxed ? resolveSandboxToolPolicyForAgent(cfg, agentId) : undefined;
  const profile = resolveConversationCapabilityProfile({
    config: cfg,
    sessionKey,
    agentId,
    sandboxToolPolicy: sandboxToolPolicy ? { allow: sandboxToolPolicy.allow, deny: sandboxToolPolicy.deny } : undefined,
  });
  const warnings = [];
  const allowedSet = new Set(projectConversationToolNames({ capabilityProfile: profile, toolNames: allNames, warn: (m) => warnings.push(String(m)) }));
  const tools = {};
  for (const n of coreNames) tools[n] = allowedSet.has(n);
  const channelTools = {};
  for (const n of channelToolNames) channelTools[n] = allowedSet.has(n);
  const eff = resolveEffectiveToolPolicy({ config: cfg, sessionKey, agentId });
  const pol = profile.policy;
  const expect = {
    error: false,
    agentId,
    sandboxed: runtime.sandboxed,
    mode: sandboxCfg.mode,
    scope: sandboxCfg.scope,
    backend: sandboxCfg.backend,
    workspaceAccess: sandboxCfg.workspaceAccess,
    workspaceRoot: sandboxCfg.workspaceRoot,
    containerWorkdir: runtime.sandboxed ? containerWorkdir : null,
    docker: sandboxCfg.docker,
    prune: sandboxCfg.prune,
    tools,
  };
  const expect_extra = {
    requestedSessionKey: originalSessionKey,
    sessionKey,
    subagent: Boolean(c.subagent) || /(^|:)subagent:/i.test(sessionKey),
    mainSessionKey: runtime.mainSessionKey,
    sandboxRequired: Boolean(runtime.sandboxRequired),
    knownAgents: listAgentIds(cfg),
    agentWorkspaceDir,
    scopeKey: layout.scopeKey,
    containerName,
    hostWorkspaceDir: runtime.sandboxed ? layout.workspaceDir : layout.agentWorkspaceDir,
    workspaceSource: runtime.sandboxed ? layout.workspaceSource : "direct",
    mounts,
    browser: sandboxCfg.browser,
    sandboxToolPolicy: sandboxToolPolicy ?? null,
    channelTools,
  };
  const layers = {
    profile: eff.profile ?? null,
    providerProfile: eff.providerProfile ?? null,
    profilePolicy: pol.profilePolicy ?? null,
    globalPolicy: pol.globalPolicy ?? null,
    agentPolicy: pol.agentPolicy ?? null,
    groupPolicy: pol.groupPolicy ?? null,
    senderPolicy: pol.senderPolicy ?? null,
    sandboxPolicy: pol.sandboxPolicy ?? null,
    subagentPolicy: pol.subagentPolicy ?? null,
    inheritedToolPolicy: pol.inheritedToolPolicy ?? null,
  };
  return { expect: undef2null(expect), expect_extra: undef2null(expect_extra), layers: undef2null(layers), warnings, exit: 0 };
}

// Loading a config copies its env.vars into process.env: put the environment back
// after every case so no case sees another's variables.
const baseEnv = { ...process.env };
function restoreEnv() {
  for (const k of Object.keys(process.env)) if (!(k in baseEnv)) delete process.env[k];
  for (const [k, v] of Object.entries(baseEnv)) if (process.env[k] !== v) process.env[k] = v;
}

let n = 0;
// split on "\n" only (readline would also split on U+2028/U+2029 inside a JSON string)
// (decoded as one text: a chunk boundary may split a multi-byte UTF-8 character)
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = Buffer.concat(chunks).toString("utf8");
for (const line of input.split("\n")) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  fs.rmSync(HOME, { recursive: true, force: true });
  fs.mkdirSync(HOME, { recursive: true });
  process.chdir(HOME);
  const dir = path.join(CFG_ROOT, `c${n++}`);
  fs.mkdirSync(dir, { recursive: true });
  const cfgPath = path.join(dir, "openclaw.json");
  fs.writeFileSync(cfgPath, c.config_text);
  // files beside the config ($include targets), paths relative to its directory
  for (const [rel, text] of Object.entries(c.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  process.env.OPENCLAW_CONFIG_PATH = cfgPath;
  notes = [];
  let r;
  try {
    r = runCase(c, cfgPath);
  } catch (err) {
    r = { expect: { error: true, code: "ORACLE_CRASH", message: String(err?.stack ?? err) }, exit: 2 };
  }
  const info = {
    oracle_exit: r.exit,
    oracle_notes: notes.map((s) => s.split(cfgPath).join("<CONFIG>")),
    ...(r.stack ? { stack: r.stack } : {}),
    ...(r.layers ? { policyLayers: r.layers, pipelineWarnings: r.warnings } : {}),
  };
  out(JSON.stringify({ id: c.id, expect: r.expect, expect_extra: r.expect_extra ?? {}, info }) + "\n");
  fs.rmSync(dir, { recursive: true, force: true });
  restoreEnv();
}
process.exit(0);
