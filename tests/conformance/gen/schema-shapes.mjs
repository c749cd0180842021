// schema-shapes.mjs: the shape (JSON types, enum values, number and length bounds, the
// keys of strict objects, recursively) of the config keys sbx knows but does not validate
// by hand, read from the real OpenClaw's zod schema (OpenClawSchema). Run with node 24
// from openclaw/dist's directory:
//   cd $OC_ROOT/dist && node .../schema-shapes.mjs > shapes.json
// then emit-shapes.py shapes.json policy/config-validate.c > policy/config-shapes.h
// What cannot be told from the schema's data (custom refinements, regexes, preprocess
// steps, tuples) is emitted as "any": sbx then accepts what OpenClaw might refuse, never
// the other way round.
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const file = fs.readdirSync(".").find((f) => /^zod-schema-[^.]*\.mjs$/.test(f) && /OpenClawSchema as t/.test(fs.readFileSync(f, "utf8")));
const mod = await import(pathToFileURL(process.cwd() + "/" + file).href);
const S = mod.t;
const schemaText = fs.readFileSync(file, "utf8");
// the string of a module-level `const NAME = "...";` of the schema's file
function constValue(name) {
  const m = new RegExp("const " + name + ' = "([^"\\\\]*)";').exec(schemaText);
  return m?.[1];
}
// the strings of a module-level `const NAME = new Set([...])` of the schema's file
function setValues(name) {
  const m = new RegExp("const " + name + " = (?:/\\* @__PURE__ \\*/ )?new Set\\(\\[([^;]*?)\\]\\);").exec(schemaText);
  return m ? [...m[1].matchAll(/"([^"\\]*)"/g)].map((x) => x[1]) : undefined;
}
const WRAP = ["optional", "default", "readonly", "catch", "prefault", "nonoptional"];
const ANY = { t: "any" };
const stack = new Set();

function checksOf(d) {
  return (d.checks || []).map((c) => c._zod?.def ?? {});
}
// a string's .trim() is an "overwrite" check: tell it by running it
function trims(x) {
  try { return typeof x.tx === "function" && x.tx("  a ") === "a"; } catch { return false; }
}
// the custom refinements of strings that sbx knows, told by their source text
function customKind(src) {
  if (/parseProviderModelRef\(value\)/.test(src)) return /value === ""/.test(src) ? "model-ref-or-empty" : "model-ref";
  if (/path\.isAbsolute\(value\) \|\| value === "~" \|\| value\.startsWith\("~\/"\)/.test(src)) return "absolute-or-home";
  if (/^\(value\) => isAbsolutePath\(value\)$/.test(src.trim())) return "absolute";
  if (/^function isHttpUrl\(/.test(src)) return "http-url";
  if (/^function isValidNonNegativeByteSizeString\(/.test(src)) return "byte-size";
  if (/^function validateHttpOrigin\(/.test(src)) return "http-origin";
  // validateHttpOrigin, and https, or http on one of the hosts of a Set (gateway.publicOrigin)
  const ho = /^function \w+\((\w+)\) \{\s*if \(!validateHttpOrigin\(\1\)\) return false;\s*const (\w+) = new URL\(\1\);\s*return \2\.protocol === "https:" \|\| (\w+)\.has\(\2\.hostname\);\s*\}$/.exec(src.trim());
  if (ho && setValues(ho[3])) return { kind: "https-origin", hosts: setValues(ho[3]) };
  // new URL(value): https, or http on one of a literal list of hosts (models.catalogRefresh.url)
  const hu = /^\((\w+)\) => \{\s*try \{\s*const (\w+) = new URL\(\1\);\s*return \2\.protocol === "https:" \|\| \2\.protocol === "http:" && \[([^\]]*(?:\[[^\]]*\][^\]]*)*)\]\.includes\(\2\.hostname\);\s*\} catch \{\s*return false;\s*\}\s*\}$/.exec(src.trim());
  if (hu) {
    const hosts = [...hu[3].matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    if (hosts.length) return { kind: "https-url-or-http-hosts", hosts };
  }
  if (/^\((\w+)\) => \1 === void 0 \|\| \1\.trim\(\)\.length > 0$/.test(src.trim())) return "not-blank";
  if (/^function isValidFileSecretRefId\(/.test(src)) return "file-secret-id";
  if (/^function isValidExecSecretRefId\(/.test(src)) return "exec-secret-id";
  if (/^\(value\) => value === value\.trim\(\)$/.test(src.trim())) return "trimmed";
  if (/^\(value\) => value\.length > 0 && value === value\.trim\(\)$/.test(src.trim())) return "nonempty-trimmed";
  if (/^\((\w+)\) => \{\s*const (\w+) = new URL\(\1\);\s*return isHttpsUrl\(\2\) && \2\.pathname !== "\/";\s*\}$/.test(src.trim())) return "https-path-url";
  return undefined;
}
function checksOnly(fn) {
  const src = String(fn);
  const arg = /^\(?(\w+)/.exec(src)?.[1];
  const rets = [...src.matchAll(/\breturn\b([^;}]*)/g)].map((m) => m[1].trim());
  return !!arg && rets.length > 0 && /^\(?\w+(?:, \w+)?\)? => \{/.test(src) && rets.every((r) => r === arg || r === "NEVER");
}
// z.preprocess that only marks the blocked keys (__proto__, constructor, prototype) it finds
// under a field its superRefine reports (tools.web.search: config-validate.c's refinements
// report them): the value is checked as written
function marksBlockedKeysOnly(fn) {
  const src = String(fn);
  const arg = /^\(?(\w+)/.exec(src)?.[1];
  const rets = [...src.matchAll(/\breturn\b([^;}]*)/g)].map((m) => m[1].trim());
  return !!arg && /isBlockedObjectKey/.test(src) && rets.length > 0 &&
    rets.every((r) => r === arg || new RegExp(`^\\{\\s*\\.\\.\\.${arg},\\s*\\[\\w+\\]: \\w+$`).test(r));
}
function desc(s) {
  const d = s?._zod?.def;
  if (!d) return ANY;
  if (stack.has(s)) return ANY; // recursive schemas: not followed
  stack.add(s);
  try { return descDef(d); } finally { stack.delete(s); }
}
function descDef(d) {
  if (WRAP.includes(d.type)) {
    const inner = desc(d.innerType);
    // string().optional().refine(...): the refinement sits on the wrapper (gateway.tls.certPath)
    for (const x of d.type === "optional" ? checksOf(d) : []) {
      const k = x.check === "custom" ? customKind(String(x.fn ?? "")) : undefined;
      if (typeof k !== "string" || inner.t !== "string" || inner.custom) continue;
      inner.custom = k;
      let e;
      try { e = typeof x.error === "function" ? x.error() : x.error; } catch {}
      const msg = typeof e === "string" ? e : e?.message;
      if (typeof msg === "string") inner.msg = msg;
    }
    return inner;
  }
  if (d.type === "nullable") return { t: "union", o: [desc(d.innerType), { t: "null" }] };
  if (d.type === "lazy") return desc(d.getter());
  if (d.type === "pipe") {
    const inT = d.in._zod.def.type;
    // z.preprocess: the raw value is not what is checked, unless the step only refuses (each
    // of its returns gives back its argument, or NEVER after an issue)
    if (inT === "transform")
      return checksOnly(d.in._zod.def.transform) || marksBlockedKeysOnly(d.in._zod.def.transform) ? desc(d.out) : ANY;
    return desc(d.in);
  }
  const cks = checksOf(d);
  switch (d.type) {
    case "object": {
      const keys = {};
      const req = [];
      for (const [k, v] of Object.entries(d.shape)) {
        keys[k] = desc(v);
        if (!v._zod.optin && !v.safeParse(undefined).success) req.push(k); // absent is refused
      }
      const ct = d.catchall?._zod?.def?.type;
      return { t: "object", keys, req, extra: ct === "never" ? "no" : ct && ct !== "unknown" && ct !== "any" ? desc(d.catchall) : "yes" };
    }
    case "record": {
      const n = { t: "record", v: desc(d.valueType) };
      const k = d.keyType?._zod?.def?.type === "string" && d.keyType._zod.def.checks?.length ? desc(d.keyType) : ANY;
      if (k.t === "string") n.k = k; // the keys' checks (zod: "invalid_key")
      return n;
    }
    case "array": {
      const n = { t: "array", e: desc(d.element) };
      for (const x of cks) {
        if (x.check === "min_length") n.min = x.minimum;
        if (x.check === "max_length") n.max = x.maximum;
      }
      return n;
    }
    case "string": {
      const n = { t: "string" };
      const affix = [];
      let trimmed = false;
      if (d.format === "url" && !d.hostname && !d.protocol && !d.normalize) n.url = true; // z.url()
      for (const x of cks) {
        if (x.check === "overwrite") {
          if (!trims(x)) break; // another rewrite: the checks after it see what sbx cannot
          trimmed = true;
          continue;
        }
        if (x.check === "min_length") n.min = x.minimum;
        if (x.check === "max_length") n.max = x.maximum;
        if (x.check === "custom") {
          // (v) => v !== "a" && v !== "b": the values it refuses
          // (v) => v !== "a" && v !== NAME (a module-level string constant): the values it refuses
          const lit = String.raw`(?:"[^"]*"|[A-Z_][A-Z0-9_]*)`;
          const ex = new RegExp(String.raw`^\((\w+)\) => \1 !== ${lit}(?: && \1 !== ${lit})*$`).test(String(x.fn ?? "").trim());
          const vals = ex ? [...String(x.fn).matchAll(/!== (?:"([^"]*)"|([A-Z_][A-Z0-9_]*))/g)].map((m) => m[1] ?? constValue(m[2])) : [];
          if (ex && vals.every((v) => typeof v === "string")) (n.excluded ??= []).push(...vals);
          let k = customKind(String(x.fn ?? ""));
          if (k?.hosts) ({ kind: k, hosts: n.hosts } = k);
          if (k) {
            n.custom = k;
            let e;
            try { e = typeof x.error === "function" ? x.error() : x.error; } catch {}
            const msg = typeof e === "string" ? e : e?.message;
            if (typeof msg === "string") n.msg = msg;
          }
        }
        // a check's own message (zod's default when it has none), for a node of one regex
        const ownMsg = (dflt) => {
          let e;
          try { e = typeof x.error === "function" ? x.error({ code: "invalid_format", input: "" }) : x.error; } catch {}
          const m = typeof e === "string" ? e : e?.message;
          return typeof m === "string" ? m : dflt;
        };
        if (x.check === "string_format" && x.format === "regex") (n.re ??= []).push({ src: x.pattern.source, flags: x.pattern.flags, msg: ownMsg(undefined) });
        // startsWith/endsWith/includes: a regex of the escaped text (ui.prefs.accent's "#"), kept
        // apart: a node checks one regex, so with another the string is both nodes ("all")
        const lit = (t) => t.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
        if (x.check === "string_format" && x.format === "starts_with") affix.push({ src: "^" + lit(x.prefix), flags: "", msg: ownMsg(`Invalid string: must start with "${x.prefix}"`) });
        if (x.check === "string_format" && x.format === "ends_with") affix.push({ src: lit(x.suffix) + "$", flags: "", msg: ownMsg(`Invalid string: must end with "${x.suffix}"`) });
        if (x.check === "string_format" && x.format === "includes") affix.push({ src: lit(x.includes), flags: "", msg: ownMsg(`Invalid string: must include "${x.includes}"`) });
        if (x.check === "string_format" && x.format === "url" && !x.hostname && !x.protocol && !x.normalize) n.url = true;
        if (trimmed) n.trim = true; // the checks see the trimmed string
      }
      if (affix.length && n.re) return { t: "all", o: [n, ...affix.map((r) => ({ ...n, re: [r] }))] };
      if (affix.length) n.re = affix;
      return n;
    }
    case "number": case "int": {
      const n = { t: "number" };
      for (const x of cks) {
        if (x.check === "number_format" && ["safeint", "int32", "uint32"].includes(x.format)) n.int = true;
        if (x.check === "greater_than") { n.lo = Number(x.value); n.loIncl = !!x.inclusive; }
        if (x.check === "less_than") { n.hi = Number(x.value); n.hiIncl = !!x.inclusive; }
      }
      return n;
    }
    case "boolean": return { t: "boolean" };
    case "null": return { t: "null" };
    case "enum": return { t: "enum", v: Object.values(d.entries) };
    case "literal": return { t: "enum", v: d.values };
    case "union": return { t: "union", o: d.options.map(desc) };
    case "intersection": return { t: "all", o: [desc(d.left), desc(d.right)] };
    default: return ANY;
  }
}
function shapeOf(s) {
  for (let i = 0; i < 20; i++) {
    const d = s._zod.def;
    if (WRAP.includes(d.type) || d.type === "nullable") s = d.innerType;
    else if (d.type === "pipe") s = d.in._zod.def.type === "transform" ? d.out : d.in;
    else if (d.type === "lazy") s = d.getter();
    else break;
  }
  return s._zod.def.shape;
}
const root = shapeOf(S);
const out = {};
const agents = shapeOf(root.agents);
const defaults = shapeOf(agents.defaults);
let entryRec = agents.entries;
while (entryRec._zod.def.type !== "record") entryRec = entryRec._zod.def.innerType ?? entryRec._zod.def.in;
const entry = shapeOf(entryRec._zod.def.valueType);
const tools = shapeOf(root.tools);
const session = shapeOf(root.session);
const subagents = shapeOf(defaults.subagents);
const at = shapeOf(entry.tools);
for (const [g, sh] of Object.entries({ root, defaults, entry, tools, agenttools: at, session, subagents }))
  for (const [k, v] of Object.entries(sh)) out[g + "." + k] = desc(v);

// The bundled channel plugins' JSON Schemas (draft-07, validated with their defaults applied
// first): "channel.<id>" rows, in the same node shapes. What the tables cannot say ($ref,
// not, if/then, formats but "uri", oneOf's "exactly one") is "any" or a plain union.
const metaFile = fs.readdirSync(".").find((f) => /^bundled-channel-config-metadata\.generated-[^.]*\.mjs$/.test(f));
const meta = (await import(pathToFileURL(process.cwd() + "/" + metaFile).href)).t;
// A local "$ref" ("#/$defs/x", "#/definitions/x") alone in its object is the schema it points
// at, within the schema being described (jsRoot); recursive ones stay "any".
let jsRoot = null;
const jsRefs = new Set();
function jsRef(ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/") || jsRefs.has(ref)) return undefined;
  let t = jsRoot;
  for (const part of ref.slice(2).split("/")) {
    t = t?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (t === undefined) return undefined;
  }
  return t;
}
function jsDesc(s) {
  if (s === true || s === undefined || s === null || typeof s !== "object") return ANY;
  if (s === false) return { t: "union", o: [] };
  if (s.$ref && Object.keys(s).every((k) => ["$ref", "description", "title", "$comment"].includes(k))) {
    const target = jsRef(s.$ref);
    if (target === undefined) return ANY;
    jsRefs.add(s.$ref);
    try { return jsDesc(target); } finally { jsRefs.delete(s.$ref); }
  }
  if (s.$ref || s.not || s.if) return ANY;
  if (s.anyOf || s.oneOf) {
    const o = (s.anyOf ?? s.oneOf).map(jsDesc);
    return o.some((x) => x.t === "any") ? ANY : { t: "union", o };
  }
  if (s.allOf) return { t: "all", o: s.allOf.map(jsDesc) };
  if (s.const !== undefined) return { t: "enum", v: [s.const] };
  if (s.enum) return { t: "enum", v: s.enum };
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : null;
  if (!types) return ANY;
  const one = (t) => {
    switch (t) {
      case "string": {
        const n = { t: "string" };
        if (s.minLength !== undefined) n.min = s.minLength;
        if (s.maxLength !== undefined) n.max = s.maxLength;
        if (s.pattern) n.re = [{ src: s.pattern, flags: "u" }];
        if (s.format === "uri") n.url = "raw"; // OpenClaw's plugin validator: URL.canParse(value)
        return n;
      }
      case "number": case "integer": {
        const n = { t: "number" };
        if (t === "integer") n.int = true;
        if (s.minimum !== undefined) { n.lo = s.minimum; n.loIncl = true; }
        if (s.exclusiveMinimum !== undefined) { n.lo = s.exclusiveMinimum; n.loIncl = false; }
        if (s.maximum !== undefined) { n.hi = s.maximum; n.hiIncl = true; }
        if (s.exclusiveMaximum !== undefined) { n.hi = s.exclusiveMaximum; n.hiIncl = false; }
        return n;
      }
      case "boolean": return { t: "boolean" };
      case "null": return { t: "null" };
      case "array": {
        const n = { t: "array", e: Array.isArray(s.items) ? ANY : jsDesc(s.items) };
        if (s.minItems !== undefined) n.min = s.minItems;
        if (s.maxItems !== undefined) n.max = s.maxItems;
        return n;
      }
      case "object": {
        const keys = {};
        for (const [k, v] of Object.entries(s.properties ?? {})) keys[k] = jsDesc(v);
        // a required property with a default is filled in before the check
        const req = (s.required ?? []).filter((k) => !(s.properties?.[k] && "default" in s.properties[k]));
        const ap = s.additionalProperties;
        const extra = s.patternProperties ? "yes" : ap === false ? "no" : ap && typeof ap === "object" ? jsDesc(ap) : "yes";
        const n = { t: "object", keys, req, extra };
        if (s.propertyNames?.pattern) n.keyre = [{ src: s.propertyNames.pattern, flags: "u" }];
        return n;
      }
      default: return ANY;
    }
  };
  return types.length === 1 ? one(types[0]) : { t: "union", o: types.map(one) };
}
const withChannels = JSON.parse(JSON.stringify(out));
for (const c of meta) if (c.schema) { jsRoot = c.schema; withChannels["channel." + c.channelId] = jsDesc(c.schema); }
// The bundled plugins' config schemas (plugins.entries.<id>.config, validated the same way):
// "plugin.<id>" rows, from the plugin registry of a fresh install.
const regFile = fs.readdirSync(".").find((f) => f.endsWith(".mjs") &&
  /(?:^|\n)function resolveConfigWidePluginManifestRegistry\(/.test(fs.readFileSync(f, "utf8")));
const regExport = fs.readFileSync(regFile, "utf8").match(/export \{([^}]*)\};?\s*$/)[1].split(",")
  .map((x) => x.trim().split(/\s+as\s+/)).find(([l]) => l === "resolveConfigWidePluginManifestRegistry");
const regMod = await import(pathToFileURL(process.cwd() + "/" + regFile).href);
const quiet = [console.warn, console.error];
console.warn = console.error = () => {};
const registry = regMod[regExport[1] ?? regExport[0]]({ config: {}, env: process.env });
[console.warn, console.error] = quiet;
for (const p of registry.plugins) if (p.configSchema) { jsRoot = p.configSchema; withChannels["plugin." + p.id] = jsDesc(p.configSchema); }
console.log(JSON.stringify(withChannels));
