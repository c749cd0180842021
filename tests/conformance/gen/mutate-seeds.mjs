// corpus lines -> {id, cfg(JSON), agent, session, subagent, files} for parseable, ok-or-error configs
import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(process.env.OC_DIR + "/node_modules/");
const JSON5 = require("json5");
const out = [];
for (const f of process.argv.slice(2)) {
  for (const line of fs.readFileSync(f, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    let v;
    try { v = JSON5.parse(c.config_text); } catch { continue; }
    if (!v || typeof v !== "object" || Array.isArray(v)) continue;
    out.push(JSON.stringify({ id: c.id, cfg: v, agent: c.agent, session: c.session, subagent: c.subagent, files: c.files ?? null, ok: !c.expect.error }));
  }
}
process.stdout.write(out.join("\n") + "\n");
