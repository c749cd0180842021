// doc-blocks.mjs: the json/json5 code blocks of OpenClaw's docs that parse as a config (top-level
// keys of the config), one JSON line each {file, n, text}. OC_ROOT=<openclaw package dir> node doc-blocks.mjs
import fs from "node:fs"; import path from "node:path";
const OC = process.env.OC_ROOT;  // the openclaw package dir (its docs/ and its json5)
const JSON5 = (await import(path.join(OC, "..", "json5", "lib", "index.js"))).default;
const root = path.join(OC, "docs");
const out = [];
function walk(d) { for (const e of fs.readdirSync(d, {withFileTypes: true})) { const p = path.join(d, e.name);
  if (e.isDirectory()) walk(p); else if (e.name.endsWith(".md") || e.name.endsWith(".mdx")) scan(p); } }
const TOP = new Set(["agents","tools","channels","session","gateway","models","plugins","browser","env","hooks","cron","messages","commands","skills","mcp","auth","logging","ui","wizard","update","talk","approvals","diagnostics","memory","media","web","meta","nodeHost","discovery","canvasHost","secrets","bindings","broadcast","audio","acp","$include","sandbox","routing","agent","identity"]);
function scan(p) {
  const t = fs.readFileSync(p, "utf8");
  const re = /```(json5?|jsonc)[^\n]*\n([\s\S]*?)```/g; let m; let n = 0;
  while ((m = re.exec(t))) { n++;
    let txt = m[2];
    // strip indentation of blocks inside lists
    const lines = txt.split("\n"); const ind = Math.min(...lines.filter(l => l.trim()).map(l => l.match(/^ */)[0].length));
    txt = lines.map(l => l.slice(ind)).join("\n");
    let v; try { v = JSON5.parse(txt); } catch { continue; }
    if (!v || typeof v !== "object" || Array.isArray(v)) continue;
    const ks = Object.keys(v); if (!ks.length || !ks.every(k => TOP.has(k))) continue;
    out.push({file: path.relative(root, p), n, text: txt});
  } }
walk(root);
for (const o of out) console.log(JSON.stringify(o));
