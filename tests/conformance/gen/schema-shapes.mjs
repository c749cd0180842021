// schema-shapes.mjs: the coarse shape (JSON types, enum values, number bounds) of the
// config keys sbx knows but does not validate in depth, read from the real OpenClaw's
// zod schema (OpenClawSchema). Run with node 24 from openclaw/dist's directory:
//   cd $OC_ROOT/dist && node .../schema-shapes.mjs > shapes.json
// then emit-shapes.py shapes.json > policy/config-shapes.h
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const file = fs.readdirSync(".").find((f) => /^zod-schema-[^.]*\.mjs$/.test(f) && /OpenClawSchema as t/.test(fs.readFileSync(f, "utf8")));
const mod = await import(pathToFileURL(process.cwd() + "/" + file).href);
const S = mod.t;
function unwrap(s) {
  for (let i = 0; i < 20 && s; i++) {
    const d = s._zod?.def ?? s.def;
    if (!d) return s;
    if (["optional", "nullable", "default", "readonly", "catch", "prefault", "nonoptional"].includes(d.type)) s = d.innerType;
    else if (d.type === "pipe") s = (d.in._zod.def.type === "transform") ? d.out : d.in;
    else if (d.type === "lazy") s = d.getter();
    else return s;
  }
  return s;
}
function desc(s) {
  s = unwrap(s);
  const d = s._zod.def;
  switch (d.type) {
    case "object": return { t: "object" };
    case "record": return { t: "object" };
    case "array": return { t: "array" };
    case "string": return { t: "string" };
    case "number": case "int": return { t: "number", checks: (d.checks || []).map((c) => { const x = c._zod?.def ?? {}; return { check: x.check, value: x.value, inclusive: x.inclusive, format: x.format }; }) };
    case "boolean": return { t: "boolean" };
    case "enum": return { t: "enum", v: Object.values(d.entries) };
    case "literal": return { t: "literal", v: d.values };
    case "union": return { t: "union", o: d.options.map(desc) };
    default: return { t: d.type };
  }
}
function shapeOf(s) { s = unwrap(s); return s._zod.def.shape; }
const root = shapeOf(S);
const out = {};
const agents = shapeOf(root.agents);
const defaults = shapeOf(agents.defaults);
const entryRec = unwrap(agents.entries)._zod.def.valueType;
const entry = shapeOf(entryRec);
const tools = shapeOf(root.tools);
const session = shapeOf(root.session);
const subagents = shapeOf(defaults.subagents);
const at = shapeOf(entry.tools);
for (const [g, sh] of Object.entries({ root, defaults, entry, tools, agenttools: at, session, subagents }))
  for (const [k, v] of Object.entries(sh)) out[g + "." + k] = desc(v);
console.log(JSON.stringify(out));
