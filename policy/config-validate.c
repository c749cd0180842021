/* SPDX-License-Identifier: MIT */
/* Strict validation of the migrated tree, following the OpenClaw 2026.9.6 schema for
 * the sections sbx uses (agents.*.sandbox, tools.*, agents.entries.*.tools, session);
 * other sections only get their key names checked. Every issue names its JSON path
 * and uses OpenClaw's wording so that users can search for it. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <arpa/inet.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "config-patterns.h"
#include "util/util.h"
#include "policy.h"

static const char *const ROOT_KEYS[] = {
        "$schema",
        "meta",
        "env",
        "wizard",
        "diagnostics",
        "logging",
        "update",
        "telemetry",
        "browser",
        "ui",
        "secrets",
        "auth",
        "accessGroups",
        "acp",
        "models",
        "nodeHost",
        "agents",
        "worktreeRoot",
        "worktreeAcceleration",
        "tools",
        "security",
        "bindings",
        "broadcast",
        "attachments",
        "messages",
        "tts",
        "commands",
        "approvals",
        "session",
        "cron",
        "transcripts",
        "hooks",
        "channels",
        "discovery",
        "talk",
        "gateway",
        "cloudWorkers",
        "desktop",
        "memory",
        "mcp",
        "skills",
        "plugins",
        "surfaces",
        "proxy",
        NULL,
};
static const char *const AGENTS_KEYS[] = {"ownership", "defaults", "entries", NULL};
/* agents.defaults' keys in the schema's order (zod checks them in it): v_object_ordered */
static const char *const DEFAULTS_KEYS[] = {
        "params", "model", "modelSelectionScope", "utilityModel", "decisionModel", "imageModel",
        "mediaModels", "voiceModel", "pdfModel", "pdfMaxMb", "pdfMaxPages", "models", "modelPolicy",
        "workspace", "cwd", "skills", "silentReply", "repoRoot", "skipBootstrap",
        "skipOptionalBootstrapFiles", "contextInjection", "bootstrapMaxChars", "bootstrapTotalMaxChars",
        "experimental", "userTimezone", "startupContext", "contextPruning", "compaction",
        "embeddedAgent", "thinkingDefault", "fastModeDefault", "verboseDefault", "toolProgressDetail",
        "reasoningDefault", "elevatedDefault", "blockStreamingDefault", "blockStreamingBreak",
        "timeoutSeconds", "mediaMaxMb", "imageMaxDimensionPx", "imageQuality", "typingIntervalSeconds",
        "systemAgent", "authInheritance", "sessionStore", "maxConcurrent", "subagents", "contextLimits",
        "blockStreamingChunk", "blockStreamingCoalesce", "humanDelay", "typingMode", "heartbeat",
        "sandbox", NULL,
};
/* an agents.entries.<id>'s keys in the schema's order: v_object_ordered */
static const char *const ENTRY_KEYS[] = {
        "name", "description", "workspace", "cwd", "agentDir", "model", "utilityModel", "decisionModel",
        "models", "modelPolicy", "thinkingDefault", "verboseDefault", "toolProgressDetail",
        "reasoningDefault", "fastModeDefault", "contextInjection", "bootstrapMaxChars",
        "bootstrapTotalMaxChars", "experimental", "skills", "subagents", "embeddedAgent", "params",
        "runtime", "memory", "humanDelay", "typingMode", "tts", "skillsLimits", "contextLimits",
        "heartbeat", "identity", "groupChat", "sandbox", "tools", "default", NULL,
};
static const char *const TOOLS_KEYS[] = {
        "profile",       "allow",         "alsoAllow",      "deny",       "byProvider",
        "toolsBySender", "web",           "github",         "media",      "links",
        "sessions",      "loopDetection", "toolSearch",     "codeMode",   "swarm",
        "message",       "agentToAgent",  "elevated",       "exec",       "fs",
        "subagents",     "sandbox",       "sessions_spawn", "updatePlan", NULL,
};
static const char *const AGENT_TOOLS_KEYS[] = {
        "profile",  "allow", "alsoAllow", "deny", "byProvider",    "toolsBySender", "codeMode", "swarm",
        "elevated", "exec",  "github",    "fs",   "loopDetection", "message",       "sandbox",  NULL,
};
static const char *const SESSION_KEYS[] = {
        "scope",          "dmScope",       "groupScope",  "notifyOnCreate",
        "identityLinks",  "resetTriggers", "reset",       "resetByType",
        "resetByChannel", "store",         "mainKey",     "sendPolicy",
        "threadBindings", "sharing",       "maintenance", NULL,
};
/* ssh keys known and not checked (the checked ones are in the table of fields) */
static const char *const SSH_KEYS[] = {"identityData", "certificateData", "knownHostsData", NULL};
static const char *const POLICY_KEYS[] = {"allow", "alsoAllow", "deny", NULL};
static const char *const PROVIDER_POLICY_KEYS[] = {"allow", "alsoAllow", "deny", "profile", NULL};
static const char *const ELEVATED_KEYS[] = {"enabled", "allowFrom", NULL};
/* subagents keys known and not checked (the checked ones are in the table of fields) */
static const char *const SUBAGENTS_KEYS[] = {
        "delegationMode", "allowAgents", "maxConcurrent", "maxChildrenPerAgent", "archiveAfterMinutes",
        "model", "thinking", "runTimeoutSeconds", "announceTimeoutMs", "requireAgentId", NULL,
};
static const char *const WRAP_TOOLS_KEYS[] = {"tools", NULL};

static const char *const MODES[] = {"off", "non-main", "all", NULL};
static const char *const SCOPES[] = {"session", "agent", "shared", NULL};
static const char *const ACCESSES[] = {"none", "ro", "rw", NULL};
static const char *const PROFILES[] = {"minimal", "coding", "messaging", "full", NULL};
static const char *const VISIBILITY[] = {"spawned", "all", NULL};

static bool in_list(const char *const *l, const char *s) {
        for (; *l; l++)
                if (!strcmp(*l, s))
                        return true;
        return false;
}

static const char *tname(struct json_object *o) {
        if (!o)
                return "null";
        switch (json_object_get_type(o)) {
        case json_type_boolean:
                return "boolean";
        case json_type_double:
        case json_type_int:
                return "number";
        case json_type_string:
                return "string";
        case json_type_array:
                return "array";
        case json_type_object:
                return "object";
        case json_type_null:
                return "null";
        default:
                return "unknown";
        }
}

static bool is_num(struct json_object *o) {
        return json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double);
}

static bool expect(struct vctx *v, struct json_object *o, json_type t, const char *name) {
        if (json_object_is_type(o, t) && o)
                return true;
        if (t == json_type_double && is_num(o))
                return true;
        if (v->plugin_schema)
                issue(v, "invalid config: must be %s", name);
        else
                issue(v, "Invalid input: expected %s, received %s", name, tname(o));
        return false;
}

/* Shapes of the clawdbot era that 2026.9.6 rejects: say what replaced them. */
static const char *legacy_hint(const jpath *p, const char *key) {
        if (p->len == 0 && !strcmp(key, "agent"))
                return "top-level agent.* is now agents.defaults.*";
        if (p->len == 0 && !strcmp(key, "routing"))
                return "routing.agents.<id> is now agents.entries.<id>";
        if (!strcmp(key, "perSession"))
                return "sandbox.perSession is now sandbox.scope (true: \"session\", false: \"shared\")";
        if (!strcmp(p->buf, "agents") && !strcmp(key, "list"))
                return "agents.list[] is now agents.entries.<id>; it is migrated only when it is the only "
                       "roster and "
                       "every id is already canonical";
        return NULL;
}

/* What a member must be, for the tables of fields below (one row a key, checked in order). */
enum vkind {
        V_STRING,           /* any string */
        V_NONEMPTY,         /* a string of at least one character */
        V_BOOL,
        V_ENUM,             /* one of .values */
        V_STRINGS,          /* an array of strings */
        V_NUMBER,           /* any finite number */
        V_NUMBER_POSITIVE,  /* > 0 */
        V_INT_POSITIVE,     /* an integer > 0 */
        V_INT_NONNEG,       /* an integer >= 0 */
        V_STRING_OR_NUMBER,
        V_CHECK,            /* .check says */
};

struct vfield {
        const char *key;
        enum vkind kind;
        const char *const *values;
        void (*check)(struct vctx *v, struct json_object *o);
};

static bool known_key(const char *const *keys, const struct vfield *fields, const char *k) {
        if (keys && in_list(keys, k))
                return true;
        for (; fields && fields->key; fields++)
                if (!strcmp(fields->key, k))
                        return true;
        return false;
}

/* Reports the held "Unrecognized key" issues of the objects at path depth DEPTH and deeper
 * (zod: an object's unknown keys after its members' issues, before its refinements'). */
static void pending_flush(struct vctx *v, size_t depth) {
        for (size_t d = JPATH_DEPTH; d-- > depth;) {
                char *line = v->pending[d];
                if (!line)
                        continue;
                v->pending[d] = NULL;
                if (!sbx_strv_contains(&v->diag->issues, line) && sbx_strv_push(&v->diag->issues, line) < 0)
                        v->oom = true;
                free(line);
        }
}

/* jpath_pop, then the issues held for the objects left (their members are checked) */
static void vpop(struct vctx *v) {
        jpath_pop(&v->path);
        pending_flush(v, v->path.depth + 1);
}

/* Before an object's refinement (superRefine): its own unknown keys come first. */
static void refine_begin(struct vctx *v) {
        pending_flush(v, v->path.depth);
}

static bool aborted_since(struct vctx *v, size_t n0);

/* Checks an object's key names: those of KEYS and of FIELDS (any when both are NULL); returns false
 * (after an issue) when it is not an object. */
static bool check_members(struct vctx *v, struct json_object *o, const char *const *keys,
                          const struct vfield *fields) {
        char extra[512] = "", hints[512] = "", addl[1024] = "";
        size_t n = 0;

        if (!expect(v, o, json_type_object, "object"))
                return false;
        if (!keys && !fields)
                return true;
        json_object_object_foreach(o, k, val) {
                (void) val;
                if (known_key(keys, fields, k))
                        continue;
                if (v->plugin_schema) { /* one issue naming them all, in the object's order */
                        size_t l = strlen(addl);
                        snprintf(addl + l, sizeof(addl) - l, "%s\"%s\"", l ? ", " : "", k);
                        continue;
                }
                size_t l = strlen(extra);
                char q[256];
                sbx_js_quote(q, sizeof(q), k); /* zod's joinValues: JSON.stringify */
                snprintf(extra + l, sizeof(extra) - l, "%s%s", n ? ", " : "", q);
                n++;
                const char *h = legacy_hint(&v->path, k);
                if (h) {
                        l = strlen(hints);
                        snprintf(hints + l, sizeof(hints) - l, "%s%s", l ? "; " : "", h);
                }
        }
        if (addl[0])
                issue(v, "invalid config: must not have additional properties: %s", addl);
        if (n && (v->plugin_schema || v->path.depth == 0 || v->path.depth >= JPATH_DEPTH))
                issue(v, "Unrecognized key%s: %s", n > 1 ? "s" : "", extra);
        else if (n) { /* after the members' issues: pending_flush */
                char *line = NULL;
                pending_flush(v, v->path.depth);
                if (asprintf(&line, "%s: Unrecognized key%s: %s", jpath_str(&v->path), n > 1 ? "s" : "", extra) < 0)
                        v->oom = true;
                else
                        v->pending[v->path.depth] = line;
        }
        if (hints[0] && v->diag) { /* apart: the issue stays OpenClaw's word for word */
                char h[1024];
                snprintf(h, sizeof(h), "%s: legacy: %s; run 'sbx migrate'", jpath_str(&v->path), hints);
                if (!sbx_strv_contains(&v->diag->hints, h) && sbx_strv_push(&v->diag->hints, h) < 0)
                        v->oom = true;
        }
        return true;
}

static bool check_object(struct vctx *v, struct json_object *o, const char *const *keys) {
        return check_members(v, o, keys, NULL);
}

/* Calls fn on each present member of o that is listed. */
/* FIELD bodies nest (an inner 'f' is the inner member), so shadowing is intended here */
#pragma GCC diagnostic ignored "-Wshadow"
#define FIELD(v, o, key, ...)                                                                               \
        do {                                                                                                \
                struct json_object *_f;                                                                     \
                if (json_object_object_get_ex((o), (key), &_f)) {                                           \
                        struct json_object *f = _f;                                                         \
                        jpath_push_key(&(v)->path, (key));                                                  \
                        __VA_ARGS__;                                                                        \
                        vpop(v);                                                                              \
                        (void) f;                                                                           \
                }                                                                                           \
        } while (0)

/* Runs the body on each member of o, an object (else an issue), with its key pushed on the path:
 * 'k' is the key, 'm' the member. */
#define MEMBERS(v, o, ...)                                                                                  \
        do {                                                                                                \
                if (expect((v), (o), json_type_object, "record")) { /* a z.record */                      \
                        json_object_object_foreach((o), k, m) {                                             \
                                jpath_push_key(&(v)->path, k);                                              \
                                __VA_ARGS__;                                                                \
                                vpop(v);                                                                      \
                                (void) m;                                                                   \
                        }                                                                                   \
                }                                                                                           \
        } while (0)

/* Runs the body on each element 'e' of a, an array (else an issue), with its index pushed. */
#define ELEMENTS(v, a, ...)                                                                                 \
        do {                                                                                                \
                if (expect((v), (a), json_type_array, "array"))                                             \
                        for (size_t _i = 0; _i < json_object_array_length(a); _i++) {                       \
                                struct json_object *e = json_object_array_get_idx((a), _i);                 \
                                jpath_push_index(&(v)->path, _i);                                           \
                                __VA_ARGS__;                                                                \
                                vpop(v);                                                                      \
                                (void) e;                                                                   \
                        }                                                                                   \
        } while (0)

static void v_string(struct vctx *v, struct json_object *o, bool nonempty) {
        if (expect(v, o, json_type_string, "string") && nonempty && json_object_get_string_len(o) == 0)
                issue(v, "Too small: expected string to have >=1 characters");
}

static void v_bool(struct vctx *v, struct json_object *o) {
        if (v->plugin_schema || json_object_is_type(o, json_type_boolean))
                expect(v, o, json_type_boolean, "boolean");
        else /* OpenClaw's issue text names a boolean's two values */
                issue(v, "Invalid input: expected boolean, received %s (allowed: true, false)", tname(o));
}

/* vals as "a"SEP"b"..., cut at size */
static void quote_list(char *buf, size_t size, const char *const *vals, const char *sep) {
        buf[0] = '\0';
        for (size_t i = 0; vals[i]; i++) {
                size_t l = strlen(buf);
                snprintf(buf + l, size - l, "%s\"%s\"", i ? sep : "", vals[i]);
        }
}

static void v_enum(struct vctx *v, struct json_object *o, const char *const *vals) {
        if (json_object_is_type(o, json_type_string) && in_list(vals, json_object_get_string(o)))
                return;
        char allowed[256];
        quote_list(allowed, sizeof(allowed), vals, ", ");
        issue(v, "Invalid input (allowed: %s)", allowed);
}

/* whether vals is the value list of one of the schema's z.enum nodes (SZENUMS) */
static bool zod_enum(const char *const *vals) {
        for (const char *p = SZENUMS; *p;) {
                size_t i = 0;
                bool same = true;
                for (; *p; p += strlen(p) + 1, i++)
                        same = same && vals[i] && !strcmp(vals[i], p);
                p++;
                if (same && !vals[i])
                        return true;
        }
        return false;
}

/* a schema table's enum in its validator's words: a plugin's JSON Schema "enum" (TypeBox, with
 * OpenClaw's allowed-values hint), zod's literal ("expected" + the hint), zod's z.enum of more
 * than one value ("expected one of": OpenClaw adds no hint), else a union of literals */
static void v_enum_node(struct vctx *v, struct json_object *o, const char *const *vals) {
        char allowed[512] = "", one_of[512] = "";
        size_t n = 0;
        for (; vals[n]; n++) {
                char q[256];
                sbx_js_quote(q, sizeof(q), vals[n]);
                size_t l = strlen(allowed);
                snprintf(allowed + l, sizeof(allowed) - l, "%s%s", n ? ", " : "", q);
                l = strlen(one_of);
                snprintf(one_of + l, sizeof(one_of) - l, "%s%s", n ? "|" : "", q);
        }
        if (v->plugin_schema)
                issue(v, "invalid config: must be equal to one of the allowed values (allowed: %s)", allowed);
        else if (n == 1)
                issue(v, "Invalid input: expected %s (allowed: %s)", one_of, allowed);
        else if (zod_enum(vals))
                issue(v, "Invalid option: expected one of %s", one_of);
        else /* a union of literals: "Invalid input" and the values every option names */
                issue(v, "Invalid input (allowed: %s)", allowed);
}

enum { NUM_ANY, NUM_POSITIVE, NUM_NONNEG };

/* zod 4's .int() on a finite number: a fraction is the wrong type, an integer beyond
 * Number.MAX_SAFE_INTEGER out of range (its issue without OpenClaw's bound hint) */
static bool int_ok(struct vctx *v, double d) {
        if (d != floor(d))
                issue(v, "Invalid input: expected int, received number");
        else if (d > 9007199254740991.0)
                issue(v, "Too big: expected int to be <=9007199254740991");
        else if (d < -9007199254740991.0)
                issue(v, "Too small: expected int to be >=-9007199254740991");
        else
                return true;
        return false;
}

static void v_number(struct vctx *v, struct json_object *o, bool integer, int range) {
        if (!is_num(o)) {
                issue(v, "Invalid input: expected number, received %s", tname(o)); /* int too: z.number().int() */
                return;
        }
        double d = json_object_get_double(o);
        if (!isfinite(d)) {
                issue(v, "Invalid input: expected number, received %s",
                      isnan(d) ? "NaN" : d < 0 ? "-Infinity" : "Infinity");
                return;
        }
        if (integer && !int_ok(v, d))
                return;
        if (range == NUM_POSITIVE && !(d > 0))
                issue(v, "Too small: expected number to be >0 (must be greater than 0)");
        else if (range == NUM_NONNEG && d < 0)
                issue(v, "Too small: expected number to be >=0 (minimum: 0)");
}

static void v_string_array(struct vctx *v, struct json_object *o) {
        ELEMENTS(v, o, v_string(v, e, false));
}

static void v_string_or_number(struct vctx *v, struct json_object *o) {
        if (!json_object_is_type(o, json_type_string) && !is_num(o))
                issue(v, "Invalid input: expected string | number, received %s", tname(o));
        else if (is_num(o) && !isfinite(json_object_get_double(o)))
                issue(v, "Invalid input"); /* a zod number is finite */
}

static void v_value(struct vctx *v, struct json_object *o, const struct vfield *d) {
        static const struct {
                bool integer;
                int range;
        } numbers[] = {
                [V_NUMBER] = {false, NUM_ANY},
                [V_NUMBER_POSITIVE] = {false, NUM_POSITIVE},
                [V_INT_POSITIVE] = {true, NUM_POSITIVE},
                [V_INT_NONNEG] = {true, NUM_NONNEG},
        };

        switch (d->kind) {
        case V_STRING:
        case V_NONEMPTY:
                v_string(v, o, d->kind == V_NONEMPTY);
                break;
        case V_BOOL:
                v_bool(v, o);
                break;
        case V_ENUM:
                v_enum(v, o, d->values);
                break;
        case V_STRINGS:
                v_string_array(v, o);
                break;
        case V_NUMBER:
        case V_NUMBER_POSITIVE:
        case V_INT_POSITIVE:
        case V_INT_NONNEG:
                v_number(v, o, numbers[d->kind].integer, numbers[d->kind].range);
                break;
        case V_STRING_OR_NUMBER:
                v_string_or_number(v, o);
                break;
        case V_CHECK:
        default:
                d->check(v, o);
                break;
        }
}

/* Checks each member of o that FIELDS (ended by a NULL key) lists, in the table's order. */
static void v_fields(struct vctx *v, struct json_object *o, const struct vfield *fields) {
        for (; fields->key; fields++)
                FIELD(v, o, fields->key, v_value(v, f, fields));
}

/* An object with no keys but those of FIELDS, which are checked, and of KEYS (may be NULL), which are
 * known and not checked. */
static bool v_object(struct vctx *v, struct json_object *o, const char *const *keys,
                     const struct vfield *fields) {
        if (!check_members(v, o, keys, fields))
                return false;
        v_fields(v, o, fields);
        return true;
}

/* ---- the keys sbx knows but does not read: their schema (config-shapes.h) ---- */

enum ntype { N_ANY, N_OBJECT, N_RECORD, N_ARRAY, N_STRING, N_NUMBER, N_BOOL, N_NULL, N_ENUM, N_UNION, N_ALL };
enum nextra { X_ANY, X_NONE, X_NODE }; /* an object's other keys: allowed, refused, checked by the last kid */
/* No pointers in these tables (each would be a relocation, a page written at every start of
 * sbx): a string is an offset in SPOOL (0: none), a list of strings an index in SLISTS (its
 * count, then the strings' offsets; 0: none), kids a run of SKIDS, numbers a run of SNUMS. */
struct snode {
        unsigned char type, extra;
        bool integer;               /* N_NUMBER: a safe integer */
        bool trim;                  /* N_STRING: the length bounds apply to the trimmed string */
        bool etrue, efalse;         /* N_ENUM: true / false accepted */
        double lo;                  /* number, or string / array length, bounds; NAN: none */
        bool lo_incl;
        double hi;
        bool hi_incl;
        unsigned keys;              /* N_OBJECT: the known keys, a list (kid i is key i's node) */
        unsigned kids;              /* N_RECORD / N_ARRAY: kid 0 is the value's node (N_RECORD: kid 1, when
                                     * there, the keys'); N_UNION / N_ALL: options */
        unsigned short nkids;
        unsigned svals;             /* N_ENUM: the strings accepted, a list */
        unsigned nums;              /* N_ENUM: the numbers accepted, from SNUMS[nums] */
        unsigned char nnums;
        unsigned req;               /* N_OBJECT: the keys that must be present, a list */
        unsigned re;                /* N_STRING: a POSIX extended regex the string must match */
        bool icase;                 /* ... ignoring case */
        unsigned char custom;       /* N_STRING: one of OpenClaw's refinements (K_*) */
        unsigned msg;               /* ... and its message (0: "Invalid input") */
        unsigned excluded;          /* N_STRING: values a refinement refuses, a list (0: none) */
        unsigned key_re;            /* N_OBJECT: a POSIX extended regex every key must match */
        unsigned char url;          /* N_STRING: new URL() must take it (U_*) */
        unsigned hosts;             /* N_STRING, K_HTTPS_ORIGIN: the hosts http is allowed on, a list */
};
/* the string refinements of OpenClaw's schema that sbx knows (schema-shapes.mjs names them) */
enum {
        K_NONE,
        K_MODEL_REF,          /* "provider/model" */
        K_MODEL_REF_OR_EMPTY, /* the same, or "" */
        K_ABSOLUTE_OR_HOME,   /* an absolute path, "~" or "~/..." */
        K_ABSOLUTE,           /* an absolute path */
        K_HTTP_URL,           /* an http(s) URL */
        K_TRIMMED,            /* no leading or trailing white space */
        K_BYTE_SIZE,          /* a byte size: "512", "10mb", "1.5g" */
        K_HTTP_ORIGIN,        /* http(s)://host[:port] with at most "/" after it */
        K_HTTPS_ORIGIN,       /* the same, https, or http on one of the node's hosts */
        K_HTTPS_PATH_URL,     /* an https URL whose path is not "/" */
        K_HTTPS_URL_OR_HTTP_HOSTS, /* an https URL, or an http one on one of the node's hosts */
        K_NOT_BLANK,          /* the pattern /\S/: not only JavaScript white space */
        K_NONEMPTY_TRIMMED,   /* not empty, no leading or trailing white space */
        K_FILE_SECRET_ID,     /* "value", or an absolute JSON pointer */
        K_EXEC_SECRET_ID,     /* /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/ without . or .. segments */
        K_NO_JS_SPACE,        /* no JavaScript white space beyond ASCII's (a negated \s the ERE lacks) */
};
/* how a string is checked as a URL */
enum {
        U_NONE,
        U_ZOD, /* zod's url(): the trimmed string; the checks after it see it without tabs or newlines */
        U_RAW, /* the plugins' format "uri": URL.canParse(value) */
};
struct shape {
        unsigned group, key; /* offsets in SPOOL */
        unsigned short node;
};
#include "config-shapes.h"

/* a plugin schema's pattern as written, from the ERE the shapes hold (NULL: not one) */
static const char *pattern_src(const char *re) {
        for (const char *p = SPATTERNS; *p;) {
                const char *src = p + strlen(p) + 1;
                if (!strcmp(p, re))
                        return src;
                p = src + strlen(src) + 1;
        }
        return NULL;
}
#include "idna-ascii.h"
#include "idna-map.h"

/* string s of SPOOL (NULL for 0) */
static const char *spool(unsigned s) {
        return s ? SPOOL + s : NULL;
}

/* kid i of node n */
static const struct snode *kid(const struct snode *n, unsigned i) {
        return &SNODES[SKIDS[n->kids + i]];
}

static bool slist_has(unsigned l, const char *s) {
        for (unsigned i = 0; i < SLISTS[l]; i++)
                if (!strcmp(SPOOL + SLISTS[l + 1 + i], s))
                        return true;
        return false;
}

/* list l of SLISTS as a NULL-terminated vector in buf (SLIST_MAX + 1 entries); NULL for 0 */
static const char *const *slist_vec(unsigned l, const char **buf) {
        if (!l)
                return NULL;
        for (unsigned i = 0; i < SLISTS[l]; i++)
                buf[i] = SPOOL + SLISTS[l + 1 + i];
        buf[SLISTS[l]] = NULL;
        return buf;
}

static bool below(double x, double lo, bool incl) {
        return !isnan(lo) && (incl ? x < lo : x <= lo);
}

static bool above(double x, double hi, bool incl) {
        return !isnan(hi) && (incl ? x > hi : x >= hi);
}

static bool enum_has(const struct snode *n, struct json_object *o) {
        if (json_object_is_type(o, json_type_string))
                return slist_has(n->svals, json_object_get_string(o));
        if (json_object_is_type(o, json_type_boolean))
                return json_object_get_boolean(o) ? n->etrue : n->efalse;
        if (is_num(o))
                for (unsigned i = 0; i < n->nnums; i++)
                        if (json_object_get_double(o) == SNUMS[n->nums + i])
                                return true;
        return false;
}

static bool matches_re(const char *re, bool icase, const char *s) {
        regex_t rx;
        if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0)) != 0)
                return true; /* cannot tell: accept, as for the checks the tables leave out */
        bool ok = regexec(&rx, s, 0, NULL, 0) == 0;
        regfree(&rx);
        return ok;
}

/* "provider/model": a slash with something (not only white space) on each side */
static bool model_ref(const char *s) {
        const char *slash = strchr(s, '/');
        if (!slash)
                return false;
        bool before = false, after = false;
        for (const char *p = s; p < slash; p++)
                before |= !isspace((unsigned char) *p);
        for (const char *p = slash + 1; *p; p++)
                after |= !isspace((unsigned char) *p);
        return before && after;
}

/* Math.round(x) <= Number.MAX_SAFE_INTEGER (2^53 - 1), without libm's round(): doubles
 * at or above 2^52 are integers, so round(x) <= 2^53 - 1 exactly when x < 2^53 (NaN:
 * false for both). One library fewer for the dynamic loader at every start of sbx. */
static bool rounds_to_safe(double x) {
        return x < 9007199254740992.0;
}

/* parseByteSize: trimmed, case-folded, digits with an optional fraction and an optional
 * binary unit (b k kb m mb g gb t tb), a safe integer of bytes */
static bool byte_size(const char *raw) {
        static const struct {
                const char *unit;
                double mult;
        } UNITS[] = {{"", 1}, {"b", 1}, {"k", 1024.0}, {"kb", 1024.0}, {"m", 1048576.0}, {"mb", 1048576.0},
                     {"g", 1073741824.0}, {"gb", 1073741824.0}, {"t", 1099511627776.0}, {"tb", 1099511627776.0}};
        _cleanup_free_ char *t = sbx_strdup_trim(raw), *s = t ? sbx_strdup_lower(t) : NULL;
        if (!s || !isdigit((unsigned char) s[0]))
                return false;
        const char *p = s;
        while (isdigit((unsigned char) *p))
                p++;
        if (*p == '.') {
                if (!isdigit((unsigned char) p[1]))
                        return false;
                for (p++; isdigit((unsigned char) *p); p++)
                        ;
        }
        for (const char *u = p; *u; u++)
                if (*u < 'a' || *u > 'z')
                        return false;
        for (size_t i = 0; i < ELEMENTSOF(UNITS); i++)
                if (!strcmp(p, UNITS[i].unit))
                        return rounds_to_safe(strtod(s, NULL) * UNITS[i].mult);
        return false;
}

/* a byte size given as a JSON number: String(n) must read as one (no sign, no exponent) */
static bool byte_size_number(double d) {
        return d == 0 || (d > 0 && d >= 1e-6 && d < 1e21 && rounds_to_safe(d));
}

/* what the WHATWG URL parser reads of s: no ASCII tab or newline anywhere, and with edges
 * no C0 control or space at either end (without: what zod's url() hands the checks after it) */
static char *url_clean(const char *s, bool edges) {
        size_t n = strlen(s);
        /* C0 controls and spaces off both ends; U+0000 is C0 80 in sbx's strings */
        for (;;) {
                if (edges && n && (unsigned char) s[n - 1] <= ' ')
                        n--;
                else if (edges && n >= 2 && (unsigned char) s[n - 2] == 0xC0 && (unsigned char) s[n - 1] == 0x80)
                        n -= 2;
                else
                        break;
        }
        for (;;) {
                if (edges && n && (unsigned char) *s <= ' ')
                        s++, n--;
                else if (edges && n >= 2 && (unsigned char) s[0] == 0xC0 && (unsigned char) s[1] == 0x80)
                        s += 2, n -= 2;
                else
                        break;
        }
        char *r = malloc(n + 1), *w = r;
        if (!r)
                return NULL;
        for (size_t i = 0; i < n; i++)
                if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
                        *w++ = s[i];
        *w = '\0';
        return r;
}

/* the URL parser's IPv4 number: decimal, 0x hex (may be empty), 0-led octal */
static bool ipv4_number(const char *p, size_t n, unsigned long long *ret) {
        int base = 10;
        if (n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
                base = 16, p += 2, n -= 2;
        else if (n >= 2 && p[0] == '0')
                base = 8, p++, n--;
        else if (n == 0)
                return false;
        unsigned long long v = 0;
        for (size_t i = 0; i < n; i++) {
                int d = isdigit((unsigned char) p[i]) ? p[i] - '0'
                        : base == 16 && isxdigit((unsigned char) p[i]) ? tolower((unsigned char) p[i]) - 'a' + 10
                                                                        : 99;
                if (d >= base)
                        return false;
                v = v * (unsigned) base + (unsigned) d;
                if (v > 0xffffffffffULL)
                        v = 0xffffffffffULL; /* too big either way */
        }
        *ret = v;
        return true;
}

/* a host the URL parser reads as IPv4 (its last label, a trailing empty one dropped, is a
 * number): 1 with the address in *ret, -1 when that IPv4 is invalid; 0: a domain */
static int ipv4_host(const char *h, uint32_t *ret) {
        size_t n = strlen(h);
        if (n > 1 && h[n - 1] == '.')
                n--;
        const char *last = h + n;
        while (last > h && last[-1] != '.')
                last--;
        unsigned long long v;
        size_t ln = (size_t) (h + n - last);
        if (!ln || (strspn(last, "0123456789") < ln && !ipv4_number(last, ln, &v)))
                return 0;
        unsigned long long addr = 0;
        unsigned parts = 0;
        for (const char *p = h; p <= h + n; parts++) {
                size_t pn = strcspn(p, ".");
                if (p + pn > h + n)
                        pn = (size_t) (h + n - p);
                bool is_last = p + pn >= h + n;
                if (parts >= 4 || !ipv4_number(p, pn, &v) || (!is_last && v > 255))
                        return -1;
                if (is_last) {
                        if (v >= 1ULL << (8 * (4 - parts)))
                                return -1;
                        addr = (addr << (8 * (4 - parts))) + v;
                        break;
                }
                addr = (addr << 8) + v;
                p += pn + 1;
        }
        *ret = (uint32_t) addr;
        return 1;
}

/* %XX decoded, ASCII letters lowered (the host the URL parser goes on with) */
static char *host_decode(const char *h, size_t n) {
        char *r = malloc(n + 1), *w = r;
        if (!r)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                if (h[i] == '%' && i + 2 < n && isxdigit((unsigned char) h[i + 1]) &&
                    isxdigit((unsigned char) h[i + 2])) {
                        char hx[3] = {h[i + 1], h[i + 2], 0};
                        char c = (char) strtol(hx, NULL, 16);
                        if (!c) { /* %00: kept, so the host is refused (NUL is forbidden) */
                                *w++ = '%';
                                continue;
                        }
                        *w++ = c;
                        i += 2;
                } else
                        *w++ = (char) tolower((unsigned char) h[i]);
        }
        *w = '\0';
        return r;
}

static int idna_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key, e = ((const struct idna_ascii *) elem)->cp;
        return k < e ? -1 : k > e;
}

/* the code points of a (%-decoded) host that domain-to-ASCII maps to ASCII text or deletes,
 * replaced (idna-ascii.h: fullwidth letters and digits, ideographic full stops, soft hyphens,
 * ...); other characters as they are */
static char *idna_ascii(const char *h) {
        size_t n = strlen(h), o = 0;
        char *r = malloc(n * IDNA_ASCII_MAX + 1);
        if (!r)
                return NULL;
        for (const unsigned char *p = (const unsigned char *) h; *p;) {
                size_t k = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
                uint32_t cp = k == 1 ? *p : (uint32_t) (*p & (0xFF >> (k + 1)));
                bool whole = true;
                for (size_t i = 1; i < k; i++) {
                        if ((p[i] & 0xC0) != 0x80) {
                                whole = false;
                                break;
                        }
                        cp = (cp << 6) | (p[i] & 0x3F);
                }
                const struct idna_ascii *m = k > 1 && whole ? bsearch(&cp, IDNA_ASCII, ELEMENTSOF(IDNA_ASCII),
                                                                       sizeof(IDNA_ASCII[0]), idna_cmp)
                                                            : NULL;
                if (!whole)
                        k = 1;
                if (m) {
                        size_t l = strlen(m->to);
                        memcpy(r + o, m->to, l);
                        o += l;
                } else {
                        memcpy(r + o, p, k);
                        o += k;
                }
                p += k;
        }
        r[o] = 0;
        return r;
}

/* "[...]" holds an IPv6 address (inet_pton reads what the URL parser does) */
static bool ipv6_literal(const char *h) {
        size_t n = strlen(h);
        struct in6_addr a;
        _cleanup_free_ char *in = n >= 2 && h[n - 1] == ']' ? strndup(h + 1, n - 2) : NULL;
        return in && inet_pton(AF_INET6, in, &a) == 1;
}

/* the authority's "host[:port]": the port (digits, <= 65535) cut off; *ret_port (may be
 * NULL): whether there was one */
static bool cut_port(char *host, bool *ret_port) {
        char *port = host[0] == '[' ? strchr(host, ']') : host;
        if (!port)
                return false;
        port = strchr(port, ':');
        if (ret_port)
                *ret_port = port != NULL;
        if (port) {
                *port++ = '\0';
                if (strspn(port, "0123456789") != strlen(port) || (*port && strtol(port, NULL, 10) > 65535))
                        return false;
        }
        return true;
}

/* after the ':' of a URL of a scheme that is not special (nor file:): "//" starts an
 * authority, whose host (opaque, or [IPv6]) and port the parser checks */
static bool opaque_authority(const char *p) {
        if (strncmp(p, "//", 2))
                return true; /* a path: anything */
        p += 2;
        _cleanup_free_ char *auth = strndup(p, strcspn(p, "/?#"));
        if (!auth)
                return false;
        char *at = strrchr(auth, '@'), *host = at ? at + 1 : auth;
        bool port;
        if (!cut_port(host, &port))
                return false;
        if (!*host)
                return !at && !port; /* "scheme://" alone has an empty host */
        if (host[0] == '[')
                return ipv6_literal(host);
        return !strpbrk(host, " #/:<>?@[\\]^|") && !strstr(host, "\xc0\x80"); /* forbidden: these, U+0000 */
}

static bool idn_label_ok(const char *l, size_t bytes, bool dns, char *ret_ascii, size_t *ret_len);

/* the host of a special URL as url.hostname reads it (malloc'd), NULL when the parser refuses
 * it: %-decoded, a valid IPv4 when it ends in a number (serialized), no forbidden domain
 * code point; an IPv6 one as written (lowered); a non-ASCII one %-decoded, mapped to ASCII
 * where idna-ascii.h says, else left as it is (not punycode), but refused when a label is one
 * domain-to-ASCII refuses (idn_label_ok) */
static char *special_host(const char *host) {
        if (host[0] == '[') {
                _cleanup_free_ char *dh = sbx_strdup_lower(host);
                return dh && ipv6_literal(dh) ? TAKE_PTR(dh) : NULL;
        }
        _cleanup_free_ char *dh0 = host_decode(host, strlen(host));
        _cleanup_free_ char *dh = dh0 ? idna_ascii(dh0) : NULL;
        uint32_t a = 0;
        int ip = dh ? ipv4_host(dh, &a) : -1;
        if (!dh || !*dh || ip < 0)
                return NULL;
        for (const char *c = dh; *c; c++)
                if ((unsigned char) *c <= ' ' || *c == 0x7f || strchr("#%/:<>?@[\\]^|", *c))
                        return NULL;
        /* U+0000 (C0 80) is forbidden; an unpaired surrogate (ED A0..BF xx) is U+FFFD to the
         * parser, which domain-to-ASCII refuses */
        if (strstr(dh, "\xc0\x80"))
                return NULL;
        for (const unsigned char *c = (const unsigned char *) dh; *c; c++)
                if (c[0] == 0xED && c[1] >= 0xA0 && c[1] <= 0xBF)
                        return NULL;
        if (ip > 0) {
                char *r;
                return asprintf(&r, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255) < 0 ? NULL : r;
        }
        _cleanup_free_ char *lower = sbx_strdup_lower(dh);
        for (const char *c = lower; c;) {
                size_t l = strcspn(c, "."), len;
                bool idn = false;
                for (size_t i = 0; i < l; i++)
                        idn = idn || (unsigned char) c[i] >= 0x80;
                if (idn && !idn_label_ok(c, l, false, NULL, &len))
                        return NULL;
                c = c[l] ? c + l + 1 : NULL;
        }
        if (!lower)
                return NULL;
        return TAKE_PTR(dh);
}

/* after the ':' of a file: URL: a host after two slashes is empty, a drive letter, or a
 * special URL's host (no credentials, no port) */
static bool file_host(const char *p) {
        if (!strchr("/\\", p[0]) || !p[0] || !strchr("/\\", p[1]) || !p[1])
                return true;
        p += 2;
        _cleanup_free_ char *host = strndup(p, strcspn(p, "/\\?#"));
        if (!host)
                return false;
        if (!*host || (isalpha((unsigned char) host[0]) && (host[1] == ':' || host[1] == '|') && !host[2]))
                return true;
        _cleanup_free_ char *dh = special_host(host);
        return dh != NULL;
}

/* The WHATWG URL parser's verdict, for what configs hold (s as url_clean leaves it): a
 * scheme; for the special schemes (http, https, ws, wss, ftp) a host without forbidden code
 * points, a valid IPv4 when it ends in a number, and a port <= 65535. *ret_rest (may be NULL)
 * is what follows the authority, *ret_userinfo whether it had credentials, *ret_scheme the scheme
 * lowered (malloc'd), *ret_host the host as url.hostname reads it (malloc'd; an IPv6 one as
 * written, a non-ASCII one %-decoded but not mapped) */
static bool url_parses(const char *s, const char **ret_rest, bool *ret_userinfo, char **ret_scheme,
                       char **ret_host) {
        static const char *const SPECIAL[] = {"http", "https", "ws", "wss", "ftp", NULL};
        const char *p = s;
        if (!isalpha((unsigned char) *p))
                return false;
        while (isalnum((unsigned char) *p) || *p == '+' || *p == '-' || *p == '.')
                p++;
        if (*p != ':')
                return false;
        _cleanup_free_ char *scheme = strndup(s, (size_t) (p - s)), *ls = scheme ? sbx_strdup_lower(scheme) : NULL;
        if (!ls)
                return false;
        if (!in_list(SPECIAL, ls)) {
                bool ok = !strcmp(ls, "file") ? file_host(p + 1) : opaque_authority(p + 1);
                if (ret_scheme)
                        *ret_scheme = TAKE_PTR(ls);
                return ok;
        }
        for (p++; *p == '/' || *p == '\\'; p++)
                ;
        size_t alen = strcspn(p, "/\\?#");
        _cleanup_free_ char *auth = strndup(p, alen);
        if (!auth)
                return false;
        char *host = strrchr(auth, '@');
        if (ret_userinfo) /* a username or a password: "" and ":" are neither */
                *ret_userinfo = host && host != auth && !(host == auth + 1 && auth[0] == ':');
        host = host ? host + 1 : auth;
        if (!cut_port(host, NULL))
                return false;
        _cleanup_free_ char *dh = special_host(host);
        if (!dh)
                return false;
        if (ret_rest)
                *ret_rest = p + alen;
        if (ret_scheme)
                *ret_scheme = TAKE_PTR(ls);
        if (ret_host)
                *ret_host = TAKE_PTR(dh);
        return true;
}

/* a path segment the URL parser reads as "." (1) or ".." (2), also percent-encoded; 0: other */
static int dot_segment(const char *seg, size_t n) {
        _cleanup_free_ char *l = strndup(seg, n), *t = l ? sbx_strdup_lower(l) : NULL;
        if (!t)
                return 0;
        if (!strcmp(t, ".") || !strcmp(t, "%2e"))
                return 1;
        return !strcmp(t, "..") || !strcmp(t, ".%2e") || !strcmp(t, "%2e.") || !strcmp(t, "%2e%2e") ? 2 : 0;
}

/* the path of a special URL (after the authority, up to '?' or '#', n bytes) is "/" once the
 * parser has folded its "." and ".." segments */
static bool root_path(const char *p, size_t n) {
        if (!n)
                return true;
        _cleanup_free_ bool *empty = calloc(n + 1, sizeof(bool)); /* the segments kept: empty ones? */
        size_t kept = 0;
        if (!empty)
                return false;
        for (const char *e = p + n; p < e;) {
                p++; /* the '/' or '\\' before the segment */
                size_t len = strcspn(p, "/\\");
                if (len > (size_t) (e - p))
                        len = (size_t) (e - p);
                bool last = p + len >= e;
                int dots = dot_segment(p, len);
                if (dots == 2 && kept)
                        kept--;
                if (dots == 0)
                        empty[kept++] = len == 0;
                else if (last)
                        empty[kept++] = true;
                p += len;
        }
        return !kept || (kept == 1 && empty[0]);
}

/* validateHttpOrigin: http(s), no credentials, path "/", no query or fragment (the parser
 * folds dot segments first); *ret_scheme and *ret_host (may be NULL) as url_parses gives them */
static bool http_origin(const char *raw, char **ret_scheme, char **ret_host) {
        _cleanup_free_ char *s = url_clean(raw, true), *scheme = NULL, *host = NULL;
        const char *rest = NULL;
        bool userinfo = false;
        if (!s || !url_parses(s, &rest, &userinfo, &scheme, &host) || !rest || userinfo ||
            (strcmp(scheme, "http") && strcmp(scheme, "https")))
                return false;
        size_t plen = strcspn(rest, "?#");
        if (!root_path(rest, plen))
                return false;
        rest += plen;
        if (*rest == '?')
                rest++;
        if (*rest == '#')
                rest++;
        if (*rest)
                return false;
        if (ret_scheme)
                *ret_scheme = TAKE_PTR(scheme);
        if (ret_host)
                *ret_host = TAKE_PTR(host);
        return true;
}

/* isHttpUrl: new URL() takes it and its protocol is http: or https: */
static bool http_url(const char *raw) {
        _cleanup_free_ char *s = url_clean(raw, true), *scheme = NULL;
        return s && url_parses(s, NULL, NULL, &scheme, NULL) && (!strcmp(scheme, "http") || !strcmp(scheme, "https"));
}

/* new URL(s) takes it, https, its path not "/" (after the parser folds its dot segments) */
static bool https_path_url(const char *raw) {
        _cleanup_free_ char *s = url_clean(raw, true), *scheme = NULL;
        const char *rest = NULL;
        return s && url_parses(s, &rest, NULL, &scheme, NULL) && !strcmp(scheme, "https") && rest &&
               !root_path(rest, strcspn(rest, "?#"));
}

/* url.hostname h (as url_parses gives it) is one of the hosts of list l (ASCII names, IPv4,
 * [IPv6] compared as addresses). url_parses has made idna-ascii.h's mappings to ASCII already
 * (fullwidth letters, the Kelvin sign, ...), and no other mapping or NFC step gives ASCII text: a
 * non-ASCII h is an "xn--" name to the URL parser (or refused), never a listed host. */
static bool host_listed(unsigned l, const char *h) {
        if (slist_has(l, h))
                return true;
        if (h[0] == '[') {
                struct in6_addr a, b;
                _cleanup_free_ char *in = strndup(h + 1, strcspn(h + 1, "]"));
                if (!in || inet_pton(AF_INET6, in, &a) != 1)
                        return true; /* not read here: taken */
                for (unsigned i = 0; i < SLISTS[l]; i++) {
                        const char *x = SPOOL + SLISTS[l + 1 + i];
                        _cleanup_free_ char *xin = x[0] == '[' ? strndup(x + 1, strcspn(x + 1, "]")) : NULL;
                        if (xin && inet_pton(AF_INET6, xin, &b) == 1 && !memcmp(&a, &b, sizeof(a)))
                                return true;
                }
                return false;
        }
        return false;
}

/* /^[A-Za-z]:[\\/]/ or /^\\\\[^\\]+\\[^\\]+/: a Windows drive or UNC path */
static bool win_absolute(const char *s) {
        if (isalpha((unsigned char) s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'))
                return true;
        if (s[0] != '\\' || s[1] != '\\' || !s[2] || s[2] == '\\')
                return false;
        const char *b = strchr(s + 2, '\\');
        return b && b[1] && b[1] != '\\';
}

/* isValidFileSecretRefId: "value", or an absolute JSON pointer (each "~" is "~0" or "~1") */
static bool file_secret_id_ok(const char *s) {
        if (!strcmp(s, "value"))
                return true;
        if (s[0] != '/')
                return false;
        for (const char *c = s; (c = strchr(c, '~')); c++)
                if (c[1] != '0' && c[1] != '1')
                        return false;
        return true;
}

/* isValidExecSecretRefId: /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/ without "." or ".." segments */
static bool exec_secret_id_ok(const char *s) {
        size_t n = strlen(s);
        if (n < 1 || n > 256 || !isalnum((unsigned char) s[0]) ||
            strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:/#-") != n)
                return false;
        for (const char *seg = s; seg; seg = strchr(seg, '/') ? strchr(seg, '/') + 1 : NULL) {
                size_t l = strcspn(seg, "/");
                if ((l == 1 && seg[0] == '.') || (l == 2 && !strncmp(seg, "..", 2)))
                        return false;
        }
        return true;
}

/* s (trimmed when the schema trims first) passes refinement k */
static bool refined(const struct snode *n, const char *s) {
        switch (n->custom) {
        case K_MODEL_REF:
                return model_ref(s);
        case K_MODEL_REF_OR_EMPTY:
                return !*s || model_ref(s);
        case K_ABSOLUTE_OR_HOME:
                return s[0] == '/' || !strcmp(s, "~") || !strncmp(s, "~/", 2);
        case K_ABSOLUTE: /* zod-schema.core's isAbsolutePath: POSIX, a drive letter or a UNC path */
                return s[0] == '/' || win_absolute(s);
        case K_HTTP_URL:
                return http_url(s);
        case K_BYTE_SIZE:
                return byte_size(s);
        case K_HTTP_ORIGIN:
                return http_origin(s, NULL, NULL);
        case K_NOT_BLANK: {
                _cleanup_free_ char *t = sbx_strdup_trim(s);
                return !t || *t;
        }
        case K_HTTPS_PATH_URL:
                return https_path_url(s);
        case K_HTTPS_URL_OR_HTTP_HOSTS: { /* new URL(s): https:, or http: with a listed hostname */
                _cleanup_free_ char *c = url_clean(s, true), *scheme = NULL, *host = NULL;
                if (!c || !url_parses(c, NULL, NULL, &scheme, &host))
                        return false;
                return !strcmp(scheme, "https") || (!strcmp(scheme, "http") && host && host_listed(n->hosts, host));
        }
        case K_HTTPS_ORIGIN: {
                _cleanup_free_ char *scheme = NULL, *host = NULL;
                return http_origin(s, &scheme, &host) && (!strcmp(scheme, "https") || host_listed(n->hosts, host));
        }
        case K_NONEMPTY_TRIMMED:
                if (!*s)
                        return false;
                /* fall through */
        case K_TRIMMED: {
                _cleanup_free_ char *t = sbx_strdup_trim(s);
                return !t || !strcmp(t, s);
        }
        case K_FILE_SECRET_ID:
                return file_secret_id_ok(s);
        case K_EXEC_SECRET_ID:
                return exec_secret_id_ok(s);
        case K_NO_JS_SPACE: { /* JS \s beyond ASCII: U+00A0, U+1680, U+2000-200A, 2028, 2029, 202F, 205F, 3000, FEFF */
                for (const unsigned char *c = (const unsigned char *) s; *c; c++)
                        if ((c[0] == 0xC2 && c[1] == 0xA0) || (c[0] == 0xE1 && c[1] == 0x9A && c[2] == 0x80) ||
                            (c[0] == 0xE2 && c[1] == 0x80 && ((c[2] >= 0x80 && c[2] <= 0x8A) || c[2] == 0xA8 || c[2] == 0xA9 || c[2] == 0xAF)) ||
                            (c[0] == 0xE2 && c[1] == 0x81 && c[2] == 0x9F) || (c[0] == 0xE3 && c[1] == 0x80 && c[2] == 0x80) ||
                            (c[0] == 0xEF && c[1] == 0xBB && c[2] == 0xBF))
                                return false;
                return true;
        }
        default: /* K_NONE */
                return true;
        }
}

/* agents.*.models: an entry with pickerRuntimes or codeMode needs an exact provider/model key
 * (OpenClaw's refinement of the map) */
static void v_model_map(struct vctx *v, struct json_object *o) {
        static const char *const exact[][2] = {
                {"pickerRuntimes", "Picker runtimes require an exact provider/model entry."},
                {"codeMode", "Code Mode requires an exact provider/model entry; wildcard and bare model keys are not supported."},
        };
        if (!json_object_is_type(o, json_type_object))
                return;
        json_object_object_foreach(o, ref, e) {
                if (!strchr(ref, '*') && model_ref(ref))
                        continue;
                for (size_t i = 0; i < ELEMENTSOF(exact); i++) {
                        if (!jhas(e, exact[i][0]))
                                continue;
                        jpath_push_key(&v->path, ref);
                        jpath_push_key(&v->path, exact[i][0]);
                        issue(v, "%s", exact[i][1]);
                        vpop(v);
                        vpop(v);
                }
        }
}

static unsigned key_index(unsigned keys, const char *k) {
        unsigned i = 0;
        while (strcmp(SPOOL + SLISTS[keys + 1 + i], k))
                i++;
        return i;
}

static const char *node_type_name(const struct snode *n) {
        switch (n->type) {
        case N_OBJECT:
                return "object";
        case N_RECORD:
                return "record";
        case N_ARRAY:
                return "array";
        case N_STRING:
                return "string";
        case N_NUMBER:
                return "number";
        case N_BOOL:
                return "boolean";
        default:
                return "value";
        }
}

/* whether node n is about o's JSON type (a union or an intersection may be) */
static bool same_json_type(const struct snode *n, struct json_object *o) {
        switch (n->type) {
        case N_OBJECT:
        case N_RECORD:
                return json_object_is_type(o, json_type_object);
        case N_ARRAY:
                return json_object_is_type(o, json_type_array);
        case N_STRING:
                return json_object_is_type(o, json_type_string);
        case N_NUMBER:
                return is_num(o);
        case N_BOOL:
                return json_object_is_type(o, json_type_boolean);
        case N_NULL:
                return !o || json_object_is_type(o, json_type_null);
        case N_ENUM:
                return false;
        default: /* N_ANY, N_UNION, N_ALL */
                return true;
        }
}

/* a string's or an array's length within n's bounds (else an issue) */
static bool v_length(struct vctx *v, const struct snode *n, size_t len, const char *what, const char *unit) {
        if (below((double) len, n->lo, true))
                issue(v, "Too small: expected %s to have >=%g %s", what, n->lo, unit);
        else if (above((double) len, n->hi, true))
                issue(v, "Too big: expected %s to have <=%g %s", what, n->hi, unit);
        else
                return true;
        return false;
}

static void v_node(struct vctx *v, struct json_object *o, const struct snode *n);

/* Checks o against object node n (v_node's N_OBJECT). */
static void v_node_object(struct vctx *v, struct json_object *o, const struct snode *n) {
        const char *buf[SLIST_MAX + 1];
        /* a plugin's JSON Schema: ajv checks "required" before the other object keywords */
        for (unsigned i = 0; v->plugin_schema && json_object_is_type(o, json_type_object) && i < SLISTS[n->req]; i++) {
                const char *r = SPOOL + SLISTS[n->req + 1 + i];
                if (!jhas(o, r)) {
                        jpath_push_key(&v->path, r);
                        issue(v, "invalid config: must have required property '%s'", r);
                        vpop(v);
                }
        }
        if (!check_members(v, o, n->extra == X_NONE ? slist_vec(n->keys, buf) : NULL, NULL))
                return;
        unsigned nkeys = SLISTS[n->keys];
        for (unsigned i = 0; i < nkeys; i++)
                FIELD(v, o, SPOOL + SLISTS[n->keys + 1 + i], v_node(v, f, kid(n, i)));
        for (unsigned i = 0; !v->plugin_schema && i < SLISTS[n->req]; i++) {
                const char *r = SPOOL + SLISTS[n->req + 1 + i];
                if (!jhas(o, r)) {
                        jpath_push_key(&v->path, r);
                        issue(v, "Invalid input: expected %s, received undefined",
                              node_type_name(kid(n, key_index(n->keys, r))));
                        vpop(v);
                }
        }
        if (n->extra == X_NODE) {
                json_object_object_foreach(o, k, m) {
                        if (slist_has(n->keys, k))
                                continue;
                        jpath_push_key(&v->path, k);
                        v_node(v, m, kid(n, nkeys));
                        vpop(v);
                }
        }
        /* a JSON Schema's propertyNames (plugins only), after the members' issues: the key's
         * pattern at the key, then the object's own issue */
        if (n->key_re) {
                const char *src = pattern_src(spool(n->key_re));
                json_object_object_foreach(o, key, member) {
                        (void) member;
                        if (matches_re(spool(n->key_re), false, key))
                                continue;
                        if (src) {
                                jpath_push_key(&v->path, key);
                                issue(v, "invalid config: must match pattern \"%s\"", src);
                                vpop(v);
                        }
                        issue(v, "invalid config: property names %s are invalid", key);
                }
        }
}

/* Checks o against schema node n: issues (with the path) for what zod would refuse. */
/* the node of key K of object node N, or NULL */
static const struct snode *object_key(const struct snode *n, const char *k) {
        for (unsigned i = 0; n->keys && i < SLISTS[n->keys]; i++)
                if (!strcmp(SPOOL + SLISTS[n->keys + 1 + i], k))
                        return kid(n, i);
        return NULL;
}

/* whether option n of a discriminated union has key as a string literal (an object whose key is
 * an enum of strings, or a union of such options, as zod nests them) */
static bool disc_option(const struct snode *n, const char *key) {
        if (n->type == N_UNION) {
                for (unsigned i = 0; i < n->nkids; i++)
                        if (!disc_option(kid(n, i), key))
                                return false;
                return n->nkids > 0;
        }
        const struct snode *kn = n->type == N_OBJECT ? object_key(n, key) : NULL;
        return kn && kn->type == N_ENUM && kn->svals && SLISTS[kn->svals] && !kn->nnums && !kn->etrue && !kn->efalse;
}

static bool disc_matches(const struct snode *n, const char *key, const char *val) {
        if (n->type == N_UNION) {
                for (unsigned i = 0; i < n->nkids; i++)
                        if (disc_matches(kid(n, i), key, val))
                                return true;
                return false;
        }
        return slist_has(object_key(n, key)->svals, val);
}

static void disc_values(const struct snode *n, const char *key, char *want, size_t size) {
        if (n->type == N_UNION) {
                for (unsigned i = 0; i < n->nkids; i++)
                        disc_values(kid(n, i), key, want, size);
                return;
        }
        unsigned l = object_key(n, key)->svals;
        for (unsigned j = 0; j < SLISTS[l]; j++) {
                char q[256];
                size_t w = strlen(want);
                snprintf(q, sizeof(q), "'%s'", SPOOL + SLISTS[l + 1 + j]);
                if (!strstr(want, q)) /* once each */
                        snprintf(want + w, size - w, "%s%s", w ? " | " : "", q);
        }
}

/* zod's discriminated union: an object checked by the option whose literal at the discriminator
 * (a key every option has, each an enum of strings; an option may be such a union itself) it
 * names; naming none, "Invalid discriminator value. Expected 'a' | 'b'" at that key. false when
 * union n is not one. */
static bool v_discriminated(struct vctx *v, struct json_object *o, const struct snode *n) {
        if (!json_object_is_type(o, json_type_object) || n->nkids < 2)
                return false;
        const struct snode *first = kid(n, 0);
        while (first->type == N_UNION && first->nkids)
                first = kid(first, 0);
        if (first->type != N_OBJECT || !first->keys)
                return false;
        for (unsigned ki = 0; ki < SLISTS[first->keys]; ki++) {
                const char *key = SPOOL + SLISTS[first->keys + 1 + ki];
                if (!disc_option(n, key))
                        continue;
                struct json_object *val = jget(o, key);
                const char *sv = json_object_is_type(val, json_type_string) ? json_object_get_string(val) : NULL;
                for (unsigned i = 0; sv && i < n->nkids; i++)
                        if (disc_matches(kid(n, i), key, sv)) {
                                const struct snode *opt = kid(n, i);
                                if (opt->type == N_UNION && !v_discriminated(v, o, opt))
                                        issue(v, "Invalid input");
                                else if (opt->type != N_UNION)
                                        v_node(v, o, opt);
                                return true;
                        }
                char want[512] = "";
                disc_values(n, key, want, sizeof(want));
                jpath_push_key(&v->path, key);
                issue(v, "Invalid discriminator value. Expected %s", want);
                vpop(v);
                return true;
        }
        return false;
}

static void v_node(struct vctx *v, struct json_object *o, const struct snode *n) {
        switch (n->type) {
        default: /* N_ANY */
                return;
        case N_NULL:
                if (o && !json_object_is_type(o, json_type_null))
                        issue(v, "Invalid input: expected null, received %s", tname(o));
                return;
        case N_BOOL:
                v_bool(v, o);
                return;
        case N_ENUM:
                if (!enum_has(n, o)) {
                        const char *buf[SLIST_MAX + 1];
                        if (n->svals && SLISTS[n->svals] && !n->nnums && !n->etrue && !n->efalse)
                                v_enum_node(v, o, slist_vec(n->svals, buf));
                        else
                                issue(v, "Invalid input");
                }
                return;
        case N_STRING: {
                if (!expect(v, o, json_type_string, "string"))
                        return;
                const char *raw = json_object_get_string(o);
                _cleanup_free_ char *s = n->trim ? sbx_strdup_trim(raw) : strdup(raw);
                if (!s) {
                        v->oom = true;
                        return;
                }
                if (!v_length(v, n, sbx_code_points(s), "string", "characters"))
                        return;
                if (n->url) {
                        _cleanup_free_ char *t = n->url == U_ZOD ? sbx_strdup_trim(s) : strdup(s),
                                            *u = t ? url_clean(t, true) : NULL,
                                            *w = t ? url_clean(t, false) : NULL;
                        if (!u || !w) {
                                v->oom = true;
                                return;
                        }
                        if (!url_parses(u, NULL, NULL, NULL, NULL)) {
                                if (v->plugin_schema) /* a plugin's JSON Schema "format": "uri", in ajv's words */
                                        issue(v, "invalid config: must match format \"uri\"");
                                else
                                        issue(v, "Invalid URL");
                                return;
                        }
                        if (n->url == U_ZOD) {
                                free(s);
                                s = TAKE_PTR(w);
                        }
                }
                if (!refined(n, s)) {
                        const char *src = v->plugin_schema && n->custom == K_NOT_BLANK ? pattern_src("\\S") : NULL;
                        if (src) /* a plugin's JSON Schema "pattern": "\\S", in ajv's words */
                                issue(v, "invalid config: must match pattern \"%s\"", src);
                        else
                                issue(v, "%s", n->msg ? spool(n->msg) : "Invalid input");
                }
                else if (slist_has(n->excluded, s))
                        issue(v, "Invalid input");
                else if (n->re && !matches_re(spool(n->re), n->icase, s)) {
                        const char *src = v->plugin_schema ? pattern_src(spool(n->re)) : NULL;
                        if (n->msg && n->custom == K_NONE && !v->plugin_schema) /* the check's own words */
                                issue(v, "%s", spool(n->msg));
                        else if (src) /* ajv names the pattern as the JSON Schema writes it */
                                issue(v, "invalid config: must match pattern \"%s\"", src);
                        else
                                issue(v, "Invalid string: must match pattern /%s/", spool(n->re));
                }
                return;
        }
        case N_NUMBER: {
                if (!expect(v, o, json_type_double, "number"))
                        return;
                double d = json_object_get_double(o);
                if (!isfinite(d))
                        issue(v, "Invalid input: expected number, received %s", isnan(d) ? "NaN" : d < 0 ? "-Infinity" : "Infinity");
                else if (n->integer && !int_ok(v, d))
                        ;
                /* OpenClaw's appendNumericBoundHint adds the bound in words to zod's number issues */
                else if (below(d, n->lo, n->lo_incl))
                        issue(v, "Too small: expected number to be %s%g (%s %g)", n->lo_incl ? ">=" : ">", n->lo,
                              n->lo_incl ? "minimum:" : "must be greater than", n->lo);
                else if (above(d, n->hi, n->hi_incl))
                        issue(v, "Too big: expected number to be %s%g (%s %g)", n->hi_incl ? "<=" : "<", n->hi,
                              n->hi_incl ? "maximum:" : "must be less than", n->hi);
                return;
        }
        case N_ARRAY: {
                if (!expect(v, o, json_type_array, "array"))
                        return;
                v_length(v, n, json_object_array_length(o), "array", "items");
                ELEMENTS(v, o, v_node(v, e, kid(n, 0)));
                return;
        }
        case N_RECORD: {
                bool break_value = false; /* the member's key was refused: its value is not checked */
                if (!expect(v, o, json_type_object, "record")) /* zod's z.record: "expected record" */
                        return;
                MEMBERS(v, o, {
                        if (n->nkids > 1) { /* the keys' node */
                                struct json_object *ks = json_object_new_string(k);
                                bool bad = false;
                                if (!ks)
                                        v->oom = true;
                                else if (v->plugin_schema || kid(n, 1)->type == N_ENUM)
                                        v_node(v, ks, kid(n, 1));
                                else { /* zod 4's record: a key its schema refuses is one "invalid_key"
                                        * issue, "Invalid key in record", and its value goes unchecked */
                                        sbx_config_diag d = {0};
                                        struct vctx scratch = {.diag = &d};
                                        v_node(&scratch, ks, kid(n, 1));
                                        bad = d.issues.n > 0;
                                        v->oom |= scratch.oom;
                                        sbx_config_diag_done(&d);
                                        if (bad)
                                                issue(v, "Invalid key in record");
                                }
                                json_object_put(ks);
                                if (bad)
                                        break_value = true;
                        }
                        if (!break_value)
                                v_node(v, m, kid(n, 0));
                        break_value = false;
                });
                return;
        }
        case N_OBJECT:
                v_node_object(v, o, n);
                return;
        case N_ALL:
                for (unsigned i = 0; i < n->nkids; i++)
                        v_node(v, o, kid(n, i));
                return;
        case N_UNION: {
                /* valid when one option is (each tried on a scratch context); else, as zod,
                 * the issues of the only option of the value's JSON type, or "Invalid input" */
                const struct snode *typed = NULL;
                unsigned ntyped = 0;
                for (unsigned i = 0; i < n->nkids; i++) {
                        const struct snode *k = kid(n, i);
                        sbx_config_diag d = {0};
                        struct vctx scratch = {.diag = &d};
                        v_node(&scratch, o, k);
                        bool ok = d.issues.n == 0 && !scratch.oom;
                        sbx_strv_free(&d.issues);
                        sbx_strv_free(&d.notes);
                        sbx_strv_free(&d.hints);
                        if (ok)
                                return;
                        if (same_json_type(k, o)) {
                                typed = k;
                                ntyped++;
                        }
                }
                if (v->plugin_schema) { /* ajv's anyOf: every option's errors, then its own */
                        for (unsigned i = 0; i < n->nkids; i++)
                                v_node(v, o, kid(n, i));
                        issue(v, "invalid config: must match a schema in anyOf");
                } else if (ntyped == 1)
                        v_node(v, o, typed);
                else if (!v_discriminated(v, o, n))
                        issue(v, "Invalid input");
                return;
        }
        }
}

static const struct shape *shape_of(const char *group, const char *key) {
        for (const struct shape *sh = SHAPES; sh->group; sh++)
                if (!strcmp(SPOOL + sh->group, group) && !strcmp(SPOOL + sh->key, key))
                        return sh;
        return NULL;
}

/* o against the JSON Schema of bundled plugin ID's config (plugins.entries.<id>.config), in
 * its validator's wording; false when there is no such plugin schema. */
bool sbx_config_check_plugin_config(struct vctx *v, const char *id, struct json_object *o) {
        const struct shape *sh = shape_of("plugin", id);
        if (!sh)
                return false;
        v->plugin_schema = true;
        v_node(v, o, &SNODES[sh->node]);
        v->plugin_schema = false;
        return true;
}

/* Checks the members of o that GROUP's rows of SHAPES describe. */
static void v_shapes(struct vctx *v, struct json_object *o, const char *group) {
        if (!json_object_is_type(o, json_type_object))
                return;
        for (const struct shape *sh = SHAPES; sh->group; sh++)
                if (!strcmp(SPOOL + sh->group, group))
                        FIELD(v, o, SPOOL + sh->key, v_node(v, f, &SNODES[sh->node]));
}

/* An object with the keys of ORDER, its schema's shape in order (else "Unrecognized key", held
 * until its members are checked, as zod): each member present checked in that order, by hand
 * when FIELDS lists it, then by GROUP's rows of the shape tables; a models map also by
 * v_model_map (its record's refinement). */
static bool v_object_ordered(struct vctx *v, struct json_object *o, const char *const *order,
                             const struct vfield *fields, const char *group) {
        if (!check_members(v, o, order, fields))
                return false;
        for (size_t i = 0; order[i]; i++)
                FIELD(v, o, order[i], {
                        for (const struct vfield *d = fields; d->key; d++)
                                if (!strcmp(d->key, order[i]))
                                        v_value(v, f, d);
                        const struct shape *sh = shape_of(group, order[i]);
                        if (sh)
                                v_node(v, f, &SNODES[sh->node]);
                        if (!strcmp(order[i], "models"))
                                v_model_map(v, f);
                });
        return true;
}

/* ---- tool policies ---- */

static size_t arr_len(struct json_object *o, const char *key) {
        struct json_object *a = jget(o, key);
        return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static void v_policy_lists(struct vctx *v, struct json_object *o, const char *conflict_msg) {
        FIELD(v, o, "allow", v_string_array(v, f));
        FIELD(v, o, "alsoAllow", v_string_array(v, f));
        FIELD(v, o, "deny", v_string_array(v, f));
        if (conflict_msg && arr_len(o, "allow") > 0 && arr_len(o, "alsoAllow") > 0) {
                refine_begin(v);
                issue(v, "%s", conflict_msg);
        }
}

static const char CONFLICT_POLICY[] =
        "tools policy cannot set both allow and alsoAllow in the same scope (merge alsoAllow into allow, "
        "or remove allow and use profile + alsoAllow)";

static void v_tool_policy(struct vctx *v, struct json_object *o) {
        if (check_object(v, o, POLICY_KEYS))
                v_policy_lists(v, o, CONFLICT_POLICY);
}

static void v_wrapped_policy(struct vctx *v, struct json_object *o) {
        if (check_object(v, o, WRAP_TOOLS_KEYS))
                FIELD(v, o, "tools", v_tool_policy(v, f));
}

static void v_by_provider(struct vctx *v, struct json_object *o) {
        MEMBERS(v, o, {
                if (check_object(v, m, PROVIDER_POLICY_KEYS)) {
                        FIELD(v, m, "profile", v_enum(v, f, PROFILES));
                        v_policy_lists(
                                v, m,
                                "tools.byProvider policy cannot set both allow and alsoAllow in the same "
                                "scope (merge alsoAllow into allow, or remove allow and use profile + "
                                "alsoAllow)");
                }
        });
}

static void v_tools_by_sender(struct vctx *v, struct json_object *o) {
        MEMBERS(v, o, v_tool_policy(v, m));
}

static void v_elevated(struct vctx *v, struct json_object *o) {
        if (!check_object(v, o, ELEVATED_KEYS))
                return;
        FIELD(v, o, "enabled", v_bool(v, f));
        FIELD(v, o, "allowFrom", MEMBERS(v, f, ELEMENTS(v, m, v_string_or_number(v, e))));
}

/* exec keys known and not checked (the checked ones are in the table of fields) */
static const char *const EXEC_KEYS[] = {"safeBinProfiles", "reviewer", NULL};
static const char *const EXEC_HOSTS[] = {"auto", "sandbox", "gateway", "node", NULL};
static const char *const EXEC_MODES[] = {"deny", "allowlist", "ask", "auto", "full", NULL};
static const char *const EXEC_SECURITY[] = {"deny", "allowlist", "full", NULL};
static const char *const EXEC_ASK[] = {"off", "on-miss", "always", NULL};

static void v_apply_patch(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                {"enabled", V_BOOL}, {"workspaceOnly", V_BOOL}, {"allowModels", V_STRINGS}, {NULL}
        };
        v_object(v, o, NULL, fields);
}

/* tools.exec: the host/approval settings; checked because exec is what sbx runs */
static void v_exec(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                {"host", V_ENUM, EXEC_HOSTS}, {"mode", V_ENUM, EXEC_MODES},
                {"security", V_ENUM, EXEC_SECURITY}, {"ask", V_ENUM, EXEC_ASK}, {"node", V_STRING},
                {"pathPrepend", V_STRINGS}, {"safeBins", V_STRINGS}, {"safeBinTrustedDirs", V_STRINGS},
                {"strictInlineEval", V_BOOL}, {"commandHighlighting", V_BOOL}, {"notifyOnExit", V_BOOL},
                {"notifyOnExitEmptySuccess", V_BOOL}, {"grantExpiryDays", V_NUMBER},
                {"backgroundMs", V_NUMBER}, {"approvalRunningNoticeMs", V_NUMBER},
                {"timeoutSeconds", V_NUMBER}, {"cleanupMs", V_NUMBER},
                {"applyPatch", V_CHECK, NULL, v_apply_patch}, {NULL}
        };
        size_t n0 = v->diag->issues.n;
        if (!v_object(v, o, EXEC_KEYS, fields))
                return;
        refine_begin(v);
        if (aborted_since(v, n0) || !jhas(o, "mode") || (!jhas(o, "security") && !jhas(o, "ask")))
                return;
        /* addExecPolicyModeConflictIssue: the repair names the exact mode of a security/ask pair
         * (resolveExactExecModeFromPolicy), when there is one; the values passed the enums */
        const char *sec = json_object_get_string(jget(o, "security")), *ask = json_object_get_string(jget(o, "ask"));
        char repair[256];
        if (jhas(o, "security") && jhas(o, "ask")) {
                const char *mode = !strcmp(ask, "always") || (!strcmp(sec, "full") && !strcmp(ask, "on-miss")) ? NULL
                                   : !strcmp(sec, "deny")                                                     ? "deny"
                                   : !strcmp(sec, "allowlist") && !strcmp(ask, "off")                          ? "allowlist"
                                   : !strcmp(sec, "full")                                                      ? "full"
                                                                                                               : "ask";
                if (mode)
                        snprintf(repair, sizeof(repair),
                                 "Replace security/ask with mode=\"%s\" (the equivalent of security=\"%s\" + ask=\"%s\").",
                                 mode, sec, ask);
                else
                        snprintf(repair, sizeof(repair), "This security/ask pair has no exact mode equivalent. To keep "
                                                         "this policy, retain both legacy fields and remove mode.");
        } else
                snprintf(repair, sizeof(repair), "The legacy policy is incomplete. Choose the intended security and ask "
                                                 "values before converting; no mode equivalent can be inferred.");
        jpath_push_key(&v->path, "mode");
        issue(v, "mode cannot be combined with security or ask in the same exec object. Update the deploy script, "
                 "template, or patch at this scope. %s Doctor migrates supported legacy policies to mode; run "
                 "\"openclaw doctor --fix\" only when the saved file still needs migration.",
              repair);
        vpop(v);
}

static void v_fs(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {{"workspaceOnly", V_BOOL}, {NULL}};
        v_object(v, o, NULL, fields);
}

static void v_tools(struct vctx *v, struct json_object *o, bool agent) {
        static const struct vfield fields[] = {
                {"profile", V_ENUM, PROFILES}, {"allow", V_STRINGS}, {"alsoAllow", V_STRINGS},
                {"deny", V_STRINGS}, {"byProvider", V_CHECK, NULL, v_by_provider},
                {"toolsBySender", V_CHECK, NULL, v_tools_by_sender},
                {"elevated", V_CHECK, NULL, v_elevated}, {"sandbox", V_CHECK, NULL, v_wrapped_policy},
                {"subagents", V_CHECK, NULL, v_wrapped_policy}, /* tools only: not an agent tools key */
                {"exec", V_CHECK, NULL, v_exec}, {"fs", V_CHECK, NULL, v_fs}, {NULL}
        };
        if (!v_object_ordered(v, o, agent ? AGENT_TOOLS_KEYS : TOOLS_KEYS, fields, agent ? "agenttools" : "tools"))
                return;
        /* the object's own refinement runs after its members' (zod: superRefine last) */
        refine_begin(v);
        if (arr_len(o, "allow") > 0 && arr_len(o, "alsoAllow") > 0)
                issue(v, "%s",
                      agent ? "agent tools cannot set both allow and alsoAllow in the same scope (merge "
                              "alsoAllow into allow, or remove allow and use profile + alsoAllow)"
                            : "tools cannot set both allow and alsoAllow in the same scope (merge alsoAllow "
                              "into allow, or remove allow and use profile + alsoAllow)");
}

static void v_agent_tools(struct vctx *v, struct json_object *o) {
        v_tools(v, o, true);
}

/* ---- sandbox ---- */

/* one bind of docker.binds or browser.binds, a string: the security refinement of the object
 * (validateSandboxBindEntries, run after the members' checks and unknown keys) */
static void v_bind(struct vctx *v, struct json_object *b) {
        if (!json_object_is_type(b, json_type_string))
                return;
        const char *s = json_object_get_string(b);
        _cleanup_free_ char *t = sbx_strdup_trim(s);
        if (!t || !*t)
                issue(v, "Sandbox security: bind mount entry must be a non-empty string.");
        else {
                _cleanup_free_ char *src = sbx_bind_source(s);
                if (src && !sbx_bind_source_absolute(src)) {
                        char qs[512], qsrc[512]; /* JSON.stringify'd, as OpenClaw prints them */
                        sbx_js_quote(qs, sizeof(qs), s);
                        sbx_js_quote(qsrc, sizeof(qsrc), src);
                        issue(v,
                              "Sandbox security: bind mount %s uses a non-absolute source path %s. "
                              "Only absolute POSIX or Windows drive-letter paths are supported for sandbox "
                              "binds.",
                              qs, qsrc);
                }
        }
}

static void v_binds(struct vctx *v, struct json_object *o) {
        if (!json_object_is_type(o, json_type_array))
                return;
        jpath_push_key(&v->path, "binds");
        ELEMENTS(v, o, v_bind(v, e));
        vpop(v);
}

static bool ieq(const char *a, const char *b) {
        _cleanup_free_ char *t = sbx_strdup_trim(a);
        return t && strcasecmp(t, b) == 0;
}

/* docker.ulimits.<name>: a string, a number or {soft, hard} */
static void v_ulimit(struct vctx *v, struct json_object *u) {
        static const struct vfield fields[] = {{"soft", V_INT_NONNEG}, {"hard", V_INT_NONNEG}, {NULL}};

        if (!json_object_is_type(u, json_type_object))
                v_string_or_number(v, u);
        else
                v_object(v, u, NULL, fields);
}

static void v_ulimits(struct vctx *v, struct json_object *o) {
        MEMBERS(v, o, v_ulimit(v, m));
}

static void v_env_strings(struct vctx *v, struct json_object *o) {
        MEMBERS(v, o, v_string(v, m, false));
}

static void v_setup_command(struct vctx *v, struct json_object *o) {
        if (json_object_is_type(o, json_type_array))
                v_string_array(v, o);
        else if (!json_object_is_type(o, json_type_string))
                issue(v, "Invalid input: expected string | array, received %s", tname(o));
}

static void v_docker(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                /* the schema's order (zod checks the members in it) */
                {"image", V_STRING}, {"containerPrefix", V_STRING}, {"workdir", V_STRING},
                {"readOnlyRoot", V_BOOL}, {"tmpfs", V_STRINGS}, {"network", V_STRING}, {"user", V_STRING},
                {"capDrop", V_STRINGS}, {"env", V_CHECK, NULL, v_env_strings},
                {"setupCommand", V_CHECK, NULL, v_setup_command}, {"pidsLimit", V_INT_POSITIVE},
                {"memory", V_STRING_OR_NUMBER}, {"memorySwap", V_STRING_OR_NUMBER},
                {"cpus", V_NUMBER_POSITIVE}, {"gpus", V_NONEMPTY}, {"ulimits", V_CHECK, NULL, v_ulimits},
                {"seccompProfile", V_STRING}, {"apparmorProfile", V_STRING}, {"dns", V_STRINGS},
                {"extraHosts", V_STRINGS}, {"binds", V_STRINGS},
                {"dangerouslyAllowReservedContainerTargets", V_BOOL},
                {"dangerouslyAllowExternalBindSources", V_BOOL},
                {"dangerouslyAllowContainerNamespaceJoin", V_BOOL}, {NULL}
        };
        size_t n0 = v->diag->issues.n;
        if (!v_object(v, o, NULL, fields))
                return;

        /* the security refinements (zod superRefine on the docker object): after its unknown
         * keys, and only when no member's issue aborted the object */
        refine_begin(v);
        if (aborted_since(v, n0))
                return;
        v_binds(v, jget(o, "binds"));
        struct json_object *net = jget(o, "network");
        if (json_object_is_type(net, json_type_string)) {
                _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(net));
                bool join = json_object_get_boolean(jget(o, "dangerouslyAllowContainerNamespaceJoin"));
                jpath_push_key(&v->path, "network");
                if (t && !strcasecmp(t, "host"))
                        issue(v, "Sandbox security: network mode \"host\" is blocked. Use \"bridge\" or "
                                 "\"none\" "
                                 "instead.");
                else if (t && !strncasecmp(t, "container:", 10) && !join)
                        issue(v,
                              "Sandbox security: network mode \"container:*\" is blocked by default. Use a "
                              "custom bridge network, or set dangerouslyAllowContainerNamespaceJoin=true "
                              "only "
                              "when you fully trust this runtime.");
                vpop(v);
        }
        struct json_object *sp = jget(o, "seccompProfile"), *ap = jget(o, "apparmorProfile");
        if (json_object_is_type(sp, json_type_string) && ieq(json_object_get_string(sp), "unconfined")) {
                jpath_push_key(&v->path, "seccompProfile");
                issue(v, "Sandbox security: seccomp profile \"unconfined\" is blocked. Use a custom seccomp "
                         "profile file or omit this setting.");
                vpop(v);
        }
        if (json_object_is_type(ap, json_type_string) && ieq(json_object_get_string(ap), "unconfined")) {
                jpath_push_key(&v->path, "apparmorProfile");
                issue(v,
                      "Sandbox security: AppArmor profile \"unconfined\" is blocked. Use a named AppArmor "
                      "profile or omit this setting.");
                vpop(v);
        }
}

static void v_browser(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                /* the schema's order */
                {"enabled", V_BOOL}, {"image", V_STRING}, {"containerPrefix", V_STRING},
                {"network", V_STRING}, {"cdpPort", V_INT_POSITIVE}, {"cdpSourceRange", V_STRING},
                {"vncPort", V_INT_POSITIVE}, {"noVncPort", V_INT_POSITIVE}, {"headless", V_BOOL},
                {"noVncEnabled", V_BOOL}, {"allowHostControl", V_BOOL}, {"autoStart", V_BOOL},
                {"autoStartTimeoutMs", V_INT_POSITIVE}, {"binds", V_STRINGS}, {NULL}
        };
        size_t n0 = v->diag->issues.n;
        if (!v_object(v, o, NULL, fields))
                return;
        refine_begin(v); /* as the docker object's */
        if (aborted_since(v, n0))
                return;
        v_binds(v, jget(o, "binds"));
        struct json_object *net = jget(o, "network");
        if (json_object_is_type(net, json_type_string) && ieq(json_object_get_string(net), "host")) {
                jpath_push_key(&v->path, "network");
                issue(v, "Sandbox security: browser network mode \"host\" is blocked. Use \"bridge\" or a "
                         "custom "
                         "bridge network instead.");
                vpop(v);
        }
}

static void v_prune(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                {"idleHours", V_INT_NONNEG}, {"maxAgeDays", V_INT_NONNEG}, {NULL}
        };
        v_object(v, o, NULL, fields);
}

static void v_ssh(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                {"target", V_NONEMPTY}, {"command", V_NONEMPTY}, {"workspaceRoot", V_NONEMPTY},
                {"identityFile", V_NONEMPTY}, {"certificateFile", V_NONEMPTY},
                {"knownHostsFile", V_NONEMPTY}, {"strictHostKeyChecking", V_BOOL},
                {"updateHostKeys", V_BOOL}, {NULL}
        };
        v_object(v, o, SSH_KEYS, fields);
}

static void v_sandbox(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {
                {"mode", V_ENUM, MODES}, {"backend", V_NONEMPTY}, {"workspaceAccess", V_ENUM, ACCESSES},
                {"sessionToolsVisibility", V_ENUM, VISIBILITY}, {"scope", V_ENUM, SCOPES},
                {"workspaceRoot", V_STRING}, {"docker", V_CHECK, NULL, v_docker},
                {"ssh", V_CHECK, NULL, v_ssh}, {"browser", V_CHECK, NULL, v_browser},
                {"prune", V_CHECK, NULL, v_prune}, {NULL}
        };
        if (!v_object(v, o, NULL, fields))
                return;
        refine_begin(v);
        struct json_object *bnet = jget(jget(o, "browser"), "network");
        if (json_object_is_type(bnet, json_type_string)) {
                _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(bnet));
                if (t && !strncasecmp(t, "container:", 10) &&
                    !json_object_get_boolean(
                            jget(jget(o, "docker"), "dangerouslyAllowContainerNamespaceJoin"))) {
                        jpath_push_key(&v->path, "browser");
                        jpath_push_key(&v->path, "network");
                        issue(v,
                              "Sandbox security: browser network mode \"container:*\" is blocked by "
                              "default. "
                              "Set sandbox.docker.dangerouslyAllowContainerNamespaceJoin=true only when you "
                              "fully trust this runtime.");
                        vpop(v);
                        vpop(v);
                }
        }
}

/* ---- agents ---- */

static bool valid_entry_key(const char *k) {
        size_t n = strlen(k);
        if (n < 1 || n > 64)
                return false;
        if (!isalnum((unsigned char) k[0]) && k[0] != '_')
                return false;
        for (size_t i = 1; i < n; i++)
                if (!isalnum((unsigned char) k[i]) && k[i] != '_' && k[i] != '-')
                        return false;
        return true;
}

static void v_entry(struct vctx *v, struct json_object *e) {
        static const struct vfield fields[] = {
                {"default", V_BOOL}, {"workspace", V_STRING}, {"name", V_STRING}, {"agentDir", V_STRING},
                {"sandbox", V_CHECK, NULL, v_sandbox}, {"tools", V_CHECK, NULL, v_agent_tools}, {NULL}
        };
        v_object_ordered(v, e, ENTRY_KEYS, fields, "entry");
}

static void v_entries(struct vctx *v, struct json_object *entries) {
        if (!expect(v, entries, json_type_object, "record")) /* z.record: "expected record" */
                return;
        json_object_object_foreach(entries, k, e) {
                jpath_push_key(&v->path, k);
                if (!valid_entry_key(k)) /* zod's z.record key schema refusing: "Invalid key in record", */
                        issue(v, "Invalid key in record"); /* and the value is not parsed (zod: continue) */
                else
                        v_entry(v, e);
                vpop(v);
        }
}

/* zod's util.aborted(): an issue since the first n0 that is not a check's (a wrong type or
 * value, a refused record key) stops the refinements of the objects around it; a check's
 * (too small/big, an unrecognized key) does not. */
static bool aborted_since(struct vctx *v, size_t n0) {
        for (size_t i = n0; i < v->diag->issues.n; i++)
                if (strstr(v->diag->issues.v[i], ": Invalid input") ||
                    strstr(v->diag->issues.v[i], ": Invalid key in record") ||
                    strstr(v->diag->issues.v[i], ": Invalid option"))
                        return true;
        return false;
}

/* The roster's refinements (OpenClaw's superRefine on agents): zod skips them once the
 * agents object had an aborting issue (aborted_since), so a config refused there never also
 * says "must contain at least one configured agent" or asks for ownership. */
static void v_entries_refine(struct vctx *v, struct json_object *entries, bool explicit_owner) {
        size_t n = 0, marked = 0;

        if (!json_object_is_type(entries, json_type_object))
                return;
        json_object_object_foreach(entries, k, e) {
                jpath_push_key(&v->path, k);
                n++;
                if (json_object_is_type(jget(e, "default"), json_type_boolean) &&
                    json_object_get_boolean(jget(e, "default")))
                        marked++;
                /* keys that normalise to the same id */
                _cleanup_free_ char *id = sbx_normalize_agent_id(k);
                struct json_object_iter it;
                json_object_object_foreachC(entries, it) {
                        if (!strcmp(it.key, k))
                                break;
                        _cleanup_free_ char *other = sbx_normalize_agent_id(it.key);
                        if (id && other && !strcmp(id, other)) {
                                issue(v,
                                      "agents.entries keys \"%s\" and \"%s\" resolve to the same agent id "
                                      "\"%s\"; "
                                      "rename one key so each agent has a unique id",
                                      it.key, k, id);
                                break;
                        }
                }
                vpop(v);
        }
        if (n == 0)
                issue(v, "agents.entries must contain at least one configured agent");
        if (marked > 1)
                issue(v, "agents.entries must contain at most one default=true entry (found %zu)", marked);
        vpop(v); /* the next two are reported at agents.ownership */
        jpath_push_key(&v->path, "ownership");
        if (explicit_owner && marked > 0)
                issue(v, "agents.ownership=explicit cannot be combined with a legacy default=true marker");
        if (n > 1 && marked == 0 && !explicit_owner && !v->retained_default)
                issue(v,
                      "multi-agent rosters require agents.ownership=\"explicit\" or one legacy default=true "
                      "marker; add agents.ownership=\"explicit\" or run openclaw doctor");
        vpop(v);
        jpath_push_key(&v->path, "entries");
}

static void v_max_spawn_depth(struct vctx *v, struct json_object *o) { /* z.number().int().min(1).max(5) */
        size_t n0 = v->diag->issues.n;
        v_number(v, o, true, NUM_ANY);
        if (v->diag->issues.n != n0)
                return;
        double d = json_object_get_double(o);
        if (d < 1)
                issue(v, "Too small: expected number to be >=1 (minimum: 1)");
        else if (d > 5)
                issue(v, "Too big: expected number to be <=5 (maximum: 5)");
}

static void v_subagents(struct vctx *v, struct json_object *o) {
        static const struct vfield fields[] = {{"maxSpawnDepth", V_CHECK, NULL, v_max_spawn_depth}, {NULL}};
        if (v_object(v, o, SUBAGENTS_KEYS, fields))
                v_shapes(v, o, "subagents");
}

static void v_agents(struct vctx *v, struct json_object *a) {
        static const struct vfield defaults[] = {
                {"workspace", V_STRING}, {"sandbox", V_CHECK, NULL, v_sandbox},
                {"subagents", V_CHECK, NULL, v_subagents}, {NULL}
        };
        size_t n0 = v->diag->issues.n;
        if (!check_object(v, a, AGENTS_KEYS))
                return;
        FIELD(v, a, "ownership", {
                if (!json_object_is_type(f, json_type_string) ||
                    strcmp(json_object_get_string(f), "explicit"))
                        issue(v, "Invalid input: expected \"explicit\" (allowed: \"explicit\")"); /* z.literal + appendAllowedValuesHint */
        });
        FIELD(v, a, "defaults", {
                v_object_ordered(v, f, DEFAULTS_KEYS, defaults, "defaults");
        });
        bool explicit_owner = json_object_is_type(jget(a, "ownership"), json_type_string) &&
                              !strcmp(json_object_get_string(jget(a, "ownership")), "explicit");
        FIELD(v, a, "entries", v_entries(v, f));
        if (aborted_since(v, n0))
                return;
        refine_begin(v);
        FIELD(v, a, "entries", v_entries_refine(v, f, explicit_owner));
        if (!jhas(a, "entries")) {
                jpath_push_key(&v->path, "entries");
                issue(v, "agents.entries must contain at least one configured agent");
                vpop(v);
        }
}

/* docker.env must survive the line-based env-file transport (docker/podman backends). */
static bool portable_env_name(const char *k) {
        if (!(isalpha((unsigned char) k[0]) || k[0] == '_'))
                return false;
        for (const char *c = k; *c; c++)
                if (!isalnum((unsigned char) *c) && *c != '_')
                        return false;
        return true;
}

static void v_env_entries(struct vctx *v, struct json_object *env, const char *backend,
                          const char *entry_id) {
        json_object_object_foreach(env, k, val) {
                if (!json_object_is_type(val, json_type_string))
                        continue;
                const char *s = json_object_get_string(val);
                size_t len = (size_t) json_object_get_string_len(val);
                bool bad_name = !portable_env_name(k);
                bool bad_val = strpbrk(s, "\r\n") || strlen(s) != len || strstr(s, "\xc0\x80"); /* NUL: C0 80 */
                if (!bad_name && !bad_val)
                        continue;
                jpath p = v->path;
                v->path = (jpath){};
                jpath_push_key(&v->path, "agents");
                /* the agent as written: agents.list[i] when the config had the legacy list */
                size_t li = SIZE_MAX;
                for (size_t i = 0; entry_id && v->raw_list && i < json_object_array_length(v->raw_list); i++) {
                        struct json_object *le = json_object_array_get_idx(v->raw_list, i), *lid = jget(le, "id");
                        if (json_object_is_type(lid, json_type_string) && !strcmp(json_object_get_string(lid), entry_id)) {
                                if (jhas(jget(jget(jget(le, "sandbox"), "docker"), "env"), k))
                                        li = i;
                                break;
                        }
                }
                if (li != SIZE_MAX) {
                        jpath_push_key(&v->path, "list");
                        jpath_push_index(&v->path, li);
                } else if (entry_id) {
                        jpath_push_key(&v->path, "entries");
                        jpath_push_key(&v->path, entry_id);
                } else
                        jpath_push_key(&v->path, "defaults");
                jpath_push_key(&v->path, "sandbox");
                jpath_push_key(&v->path, "docker");
                jpath_push_key(&v->path, "env");
                jpath_push_key(&v->path, k);
                char qk[256];
                sbx_js_quote(qk, sizeof(qk), k); /* JSON.stringify'd, as OpenClaw prints it */
                if (bad_name)
                        issue(v,
                              "%s sandbox backend requires portable environment names and single-line, "
                              "non-NUL "
                              "values because the secure env-file transport is line-delimited. Rename key "
                              "%s "
                              "to use letters, digits, and underscores without a leading digit. "
                              "SSH/OpenShell "
                              "backends may keep multiline values. Run openclaw doctor to report the "
                              "invalid "
                              "path; manual remediation is required.",
                              backend, qk);
                else
                        issue(v,
                              "%s sandbox backend requires portable environment names and single-line, "
                              "non-NUL "
                              "values because the secure env-file transport is line-delimited. Use a "
                              "single-line, "
                              "non-NUL value for key %s, or deliver multiline material through a "
                              "mounted file "
                              "or custom image. SSH/OpenShell backends may keep multiline values. Run "
                              "openclaw "
                              "doctor to report the invalid path; manual remediation is required.",
                              backend, qk);
                v->path = p;
        }
}

static char *backend_of(struct json_object *sandbox, struct json_object *defaults_sandbox) {
        struct json_object *b = jget(sandbox, "backend");
        _cleanup_free_ char *t =
                json_object_is_type(b, json_type_string) ? sbx_strdup_trim(json_object_get_string(b)) : NULL;
        if (t && *t)
                return TAKE_PTR(t);
        b = jget(defaults_sandbox, "backend");
        free(t);
        t = json_object_is_type(b, json_type_string) ? sbx_strdup_trim(json_object_get_string(b)) : NULL;
        if (t && *t)
                return TAKE_PTR(t);
        return strdup("docker");
}

static void v_container_env(struct vctx *v, struct json_object *root) {
        struct json_object *agents = jget(root, "agents"), *ds = jget(jget(agents, "defaults"), "sandbox");
        struct json_object *denv = jget(jget(ds, "docker"), "env"), *entries = jget(agents, "entries");
        bool any = false;

        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, id, e) {
                        (void) id;
                        struct json_object *s = jget(e, "sandbox");
                        struct json_object *env = jget(jget(s, "docker"), "env");
                        any = true;
                        _cleanup_free_ char *backend = backend_of(s, ds);
                        if (!backend || (strcmp(backend, "docker") && strcmp(backend, "podman")))
                                continue;
                        const char *bname = strcmp(backend, "podman") ? "Docker" : "Podman";
                        struct json_object *sc = jget(s, "scope") ?: jget(ds, "scope");
                        bool shared = json_object_is_type(sc, json_type_string) &&
                                      !strcmp(json_object_get_string(sc), "shared");
                        if (json_object_is_type(denv, json_type_object)) {
                                /* defaults keys the agent does not override */
                                json_object_object_foreach(denv, k, val) {
                                        (void) val;
                                        if (!shared && json_object_is_type(env, json_type_object) &&
                                            jhas(env, k))
                                                continue;
                                        struct json_object *one = json_object_new_object();
                                        json_object_object_add(one, k, json_object_get(val));
                                        v_env_entries(v, one, bname, NULL);
                                        json_object_put(one);
                                }
                        }
                        if (!shared && json_object_is_type(env, json_type_object))
                                v_env_entries(v, env, bname, id);
                }
        }
        if (!any && json_object_is_type(denv, json_type_object)) {
                _cleanup_free_ char *backend = backend_of(NULL, ds);
                if (backend && (!strcmp(backend, "docker") || !strcmp(backend, "podman")))
                        v_env_entries(v, denv, strcmp(backend, "podman") ? "Docker" : "Podman", NULL);
        }
}

/* channels.<id>: bundled channel ids and the metadata keys (defaults, modelByChannel: the
 * "channels" rows of config-shapes.h); each channel is checked against its plugin's JSON
 * Schema (the "channel" rows), as OpenClaw does. */
/* addLegacyChannelAcpBindingIssues: anywhere below channels, an object's `bindings` object
 * with an `acp` object (or array) is a removed spelling; the parent's issue first, then its
 * members' in their order */
static void v_legacy_acp(struct vctx *v, struct json_object *o) {
        if (json_object_is_type(o, json_type_array)) {
                for (size_t i = 0; i < json_object_array_length(o); i++) {
                        jpath_push_index(&v->path, i);
                        v_legacy_acp(v, json_object_array_get_idx(o, i));
                        jpath_pop(&v->path);
                }
                return;
        }
        if (!json_object_is_type(o, json_type_object))
                return;
        struct json_object *b = jget(o, "bindings"), *acp = jget(b, "acp");
        if (json_object_is_type(b, json_type_object) &&
            (json_object_is_type(acp, json_type_object) || json_object_is_type(acp, json_type_array))) {
                jpath_push_key(&v->path, "bindings");
                jpath_push_key(&v->path, "acp");
                issue(v, "Legacy channel-local ACP bindings were removed; use top-level bindings[] entries.");
                jpath_pop(&v->path);
                jpath_pop(&v->path);
        }
        json_object_object_foreach(o, k, m) {
                jpath_push_key(&v->path, k);
                v_legacy_acp(v, m);
                jpath_pop(&v->path);
        }
}

static void v_channels(struct vctx *v, struct json_object *o) {
        size_t n0 = v->diag->issues.n;
        if (!check_object(v, o, NULL))
                return;
        v_shapes(v, o, "channels"); /* defaults, modelByChannel */
        refine_begin(v); /* the passthrough object's superRefine, when no member aborted it */
        if (!aborted_since(v, n0))
                v_legacy_acp(v, o);
}

/* The channels' plugin-owned checks (validatePreparedConfigWithPlugins), which OpenClaw runs
 * only after the schema passed: each channel's id and its plugin's JSON Schema. A load path
 * that cannot be inspected keeps every channel as written. */
static void v_channel_plugins(struct vctx *v, struct json_object *root) {
        static const char *const extra[] = {"defaults", "modelByChannel", NULL};
        struct json_object *o = jget(root, "channels");
        if (!json_object_is_type(o, json_type_object))
                return;
        bool keep = sbx_config_plugins_preserved(root);
        jpath_push_key(&v->path, "channels");
        json_object_object_foreach(o, k, val) {
                _cleanup_free_ char *t = sbx_strdup_trim(k);
                if (!t || !*t || in_list(extra, t))
                        continue;
                v->path.plain = !keep && !in_list(sbx_channel_tools, t); /* "channels.<id>" as written */
                jpath_push_key(&v->path, t);
                v->path.plain = false;
                const struct shape *sh = shape_of("channel", t);
                if (keep)
                        ;
                else if (!in_list(sbx_channel_tools, t)) {
                        if (!sbx_config_stale_channel(root, t))
                                issue(v, "unknown channel id: %s", t);
                } else if (sh) {
                        /* OpenClaw validates config.channels[trimmed]: a padded key checks the
                         * unpadded one's value (absent: "must be object"), once per key */
                        v->plugin_schema = v->path.plain = true;
                        v_node(v, strcmp(t, k) ? jget(o, t) : val, &SNODES[sh->node]);
                        v->plugin_schema = v->path.plain = false;
                }
                vpop(v);
        }
        vpop(v);
}

/* ---- bindings and the other references to agents ---- */


/* bindings[i] is zod's union([RouteBindingSchema, AcpBindingSchema]): each branch's issues are
 * collected as zod makes them (bz_*), then the union decides as zod's handleUnionResults and
 * OpenClaw's mapZodIssueToConfigIssue do (v_binding). */
enum { BZ_VALUE, BZ_TYPE, BZ_UNRECOG, BZ_CUSTOM, BZ_UNION };
#define BZ_MAX 32
struct bz_issue {
        int code;
        unsigned depth;                 /* path below the binding: seg[0..depth) */
        const char *seg[4];
        long idx;                       /* >= 0: seg[depth - 1] is this array index */
        char msg[600];
        const char *const *values;      /* BZ_VALUE, BZ_UNION: the literals zod names */
};
struct bz_branch {
        struct bz_issue is[BZ_MAX];
        unsigned n;
};

static struct bz_issue *bz_add(struct bz_branch *br, int code, const char *const *segs, unsigned depth,
                               const char *const *values, const char *fmt, ...) _printf_(6, 7);
static struct bz_issue *bz_add(struct bz_branch *br, int code, const char *const *segs, unsigned depth,
                               const char *const *values, const char *fmt, ...) {
        if (br->n >= BZ_MAX)
                return NULL;
        struct bz_issue *x = &br->is[br->n++];
        *x = (struct bz_issue){.code = code, .depth = depth, .idx = -1, .values = values};
        for (unsigned i = 0; i < depth && i < 4; i++)
                x->seg[i] = segs[i];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->msg, sizeof(x->msg), fmt, ap);
        va_end(ap);
        return x;
}

/* zod's received type: "undefined" for a missing member */
static const char *bz_got(struct json_object *o, bool present) {
        return present ? tname(o) : "undefined";
}

/* a member of o that must be a string (required or optional) */
static void bz_string(struct bz_branch *br, struct json_object *o, const char *const *segs, unsigned depth,
                      bool required) {
        struct json_object *f = NULL;
        bool present = json_object_object_get_ex(o, segs[depth - 1], &f);
        if ((present || required) && !json_object_is_type(f, json_type_string))
                bz_add(br, BZ_TYPE, segs, depth, NULL, "Invalid input: expected string, received %s",
                       bz_got(f, present));
}

/* zod 4's enum message, its values in the hint */
static void bz_enum(struct bz_branch *br, struct json_object *o, const char *const *segs, unsigned depth,
                    const char *const *vals) {
        struct json_object *f = NULL;
        if (!json_object_object_get_ex(o, segs[depth - 1], &f))
                return;
        if (json_object_is_type(f, json_type_string) && in_list(vals, json_object_get_string(f)))
                return;
        char want[256];
        quote_list(want, sizeof(want), vals, "|");
        bz_add(br, BZ_VALUE, segs, depth, vals, "Invalid option: expected one of %s", want);
}

/* a strict object's unknown keys: one issue (zod: "continue", it does not abort the branch) */
static void bz_unknown(struct bz_branch *br, struct json_object *o, const char *const *segs, unsigned depth,
                       const char *const *keys) {
        char extra[400] = "";
        size_t n = 0;
        json_object_object_foreach(o, k, val) {
                (void) val;
                if (in_list(keys, k))
                        continue;
                char q[256];
                size_t l = strlen(extra);
                sbx_js_quote(q, sizeof(q), k);
                snprintf(extra + l, sizeof(extra) - l, "%s%s", n ? ", " : "", q);
                n++;
        }
        if (n)
                bz_add(br, BZ_UNRECOG, segs, depth, NULL, "Unrecognized key%s: %s", n > 1 ? "s" : "", extra);
}

/* an optional member that must be an object: false when absent or after its issue */
static bool bz_object(struct bz_branch *br, struct json_object *o, const char *const *segs, unsigned depth,
                      bool required, struct json_object **out) {
        struct json_object *f = NULL;
        bool present = json_object_object_get_ex(o, segs[depth - 1], &f);
        *out = f;
        if (!present && !required)
                return false;
        if (!json_object_is_type(f, json_type_object)) {
                bz_add(br, BZ_TYPE, segs, depth, NULL, "Invalid input: expected object, received %s", bz_got(f, present));
                return false;
        }
        return true;
}

static const char *const MATCH_KEYS[] = {"channel", "accountId", "peer", "guildId", "teamId", "roles", NULL};
static const char *const PEER_KINDS[] = {"direct", "group", "channel", NULL};

/* BindingMatchSchema (strict) */
static void bz_match(struct bz_branch *br, struct json_object *b) {
        struct json_object *m, *peer;
        if (!bz_object(br, b, (const char *[]){"match"}, 1, true, &m))
                return;
        bz_string(br, m, (const char *[]){"match", "channel"}, 2, true);
        bz_string(br, m, (const char *[]){"match", "accountId"}, 2, false);
        if (bz_object(br, m, (const char *[]){"match", "peer"}, 2, false, &peer)) {
                static const char *const PEER_KEYS[] = {"kind", "id", NULL};
                struct json_object *kind = jget(peer, "kind");
                if (!json_object_is_type(kind, json_type_string) || !in_list(PEER_KINDS, json_object_get_string(kind)))
                        bz_add(br, BZ_UNION, (const char *[]){"match", "peer", "kind"}, 3, PEER_KINDS, "Invalid input");
                bz_string(br, peer, (const char *[]){"match", "peer", "id"}, 3, true);
                bz_unknown(br, peer, (const char *[]){"match", "peer"}, 2, PEER_KEYS);
        }
        bz_string(br, m, (const char *[]){"match", "guildId"}, 2, false);
        bz_string(br, m, (const char *[]){"match", "teamId"}, 2, false);
        struct json_object *roles = NULL;
        if (json_object_object_get_ex(m, "roles", &roles)) {
                if (!json_object_is_type(roles, json_type_array))
                        bz_add(br, BZ_TYPE, (const char *[]){"match", "roles"}, 2, NULL,
                               "Invalid input: expected array, received %s", tname(roles));
                else
                        for (size_t i = 0; i < json_object_array_length(roles); i++) {
                                struct json_object *e = json_object_array_get_idx(roles, i);
                                if (json_object_is_type(e, json_type_string))
                                        continue;
                                struct bz_issue *x = bz_add(br, BZ_TYPE, (const char *[]){"match", "roles", ""}, 3, NULL,
                                                            "Invalid input: expected string, received %s", tname(e));
                                if (x)
                                        x->idx = (long) i;
                        }
        }
        bz_unknown(br, m, (const char *[]){"match"}, 1, MATCH_KEYS);
}

static bool bz_aborted(const struct bz_branch *br) {
        for (unsigned i = 0; i < br->n; i++)
                if (br->is[i].code != BZ_UNRECOG && br->is[i].code != BZ_CUSTOM)
                        return true;
        return false;
}

static void bz_route(struct bz_branch *br, struct json_object *b) {
        static const char *const KEYS[] = {"type", "agentId", "comment", "match", "session", NULL};
        static const char *const ROUTE[] = {"route", NULL};
        static const char *const DM[] = {"main", "per-peer", "per-channel-peer", "per-account-channel-peer", NULL};
        static const char *const GROUP[] = {"main", "per-group", NULL};
        struct json_object *t = NULL, *s;
        if (json_object_object_get_ex(b, "type", &t) &&
            !(json_object_is_type(t, json_type_string) && !strcmp(json_object_get_string(t), "route")))
                bz_add(br, BZ_VALUE, (const char *[]){"type"}, 1, ROUTE, "Invalid input: expected \"route\"");
        bz_string(br, b, (const char *[]){"agentId"}, 1, true);
        bz_string(br, b, (const char *[]){"comment"}, 1, false);
        bz_match(br, b);
        if (bz_object(br, b, (const char *[]){"session"}, 1, false, &s)) {
                static const char *const SKEYS[] = {"dmScope", "groupScope", NULL};
                bz_enum(br, s, (const char *[]){"session", "dmScope"}, 2, DM);
                bz_enum(br, s, (const char *[]){"session", "groupScope"}, 2, GROUP);
                bz_unknown(br, s, (const char *[]){"session"}, 1, SKEYS);
        }
        bz_unknown(br, b, NULL, 0, KEYS);
}

static void bz_acp(struct bz_branch *br, struct json_object *b) {
        static const char *const KEYS[] = {"type", "agentId", "comment", "match", "acp", NULL};
        static const char *const ACP[] = {"acp", NULL};
        static const char *const MODES[] = {"persistent", "oneshot", NULL};
        struct json_object *t = jget(b, "type"), *a;
        if (!(json_object_is_type(t, json_type_string) && !strcmp(json_object_get_string(t), "acp")))
                bz_add(br, BZ_VALUE, (const char *[]){"type"}, 1, ACP, "Invalid input: expected \"acp\"");
        bz_string(br, b, (const char *[]){"agentId"}, 1, true);
        bz_string(br, b, (const char *[]){"comment"}, 1, false);
        bz_match(br, b);
        if (bz_object(br, b, (const char *[]){"acp"}, 1, false, &a)) {
                static const char *const AKEYS[] = {"mode", "label", "cwd", "backend", NULL};
                bz_enum(br, a, (const char *[]){"acp", "mode"}, 2, MODES);
                bz_string(br, a, (const char *[]){"acp", "label"}, 2, false);
                bz_string(br, a, (const char *[]){"acp", "cwd"}, 2, false);
                bz_string(br, a, (const char *[]){"acp", "backend"}, 2, false);
                bz_unknown(br, a, (const char *[]){"acp"}, 1, AKEYS);
        }
        bz_unknown(br, b, NULL, 0, KEYS);
        if (bz_aborted(br)) /* the superRefine runs on a value that parsed */
                return;
        _cleanup_free_ char *peer = NULL;
        struct json_object *pid = jget(jget(jget(b, "match"), "peer"), "id");
        if (json_object_is_type(pid, json_type_string))
                peer = sbx_strdup_trim(json_object_get_string(pid));
        if (!peer || !*peer)
                bz_add(br, BZ_CUSTOM, (const char *[]){"match", "peer"}, 2, NULL,
                       "ACP bindings require match.peer.id to target a concrete conversation.");
}

static void bz_emit(struct vctx *v, const struct bz_issue *x, const char *msg) {
        for (unsigned i = 0; i < x->depth; i++)
                if (i + 1 == x->depth && x->idx >= 0)
                        jpath_push_index(&v->path, (size_t) x->idx);
                else
                        jpath_push_key(&v->path, x->seg[i]);
        issue(v, "%s", msg);
        for (unsigned i = 0; i < x->depth; i++)
                jpath_pop(&v->path);
}

/* OpenClaw's collectAllowedValuesFromIssue over one branch: false when a wrong type makes the
 * hint incomplete or the branch names no value */
static bool bz_allowed(const struct bz_branch *br, const char **seen, size_t *nseen) {
        bool any = false;
        for (unsigned i = 0; i < br->n; i++) {
                const struct bz_issue *x = &br->is[i];
                if (x->code == BZ_TYPE)
                        return false;
                if (x->code != BZ_VALUE && x->code != BZ_UNION)
                        continue;
                for (size_t j = 0; x->values[j]; j++) {
                        bool dup = false;
                        any = true;
                        for (size_t k = 0; k < *nseen && !dup; k++)
                                dup = !strcmp(seen[k], x->values[j]);
                        if (!dup && *nseen < 64) /* summarizeAllowedValues: each value once */
                                seen[(*nseen)++] = x->values[j];
                }
        }
        return any;
}

static void v_binding(struct vctx *v, struct json_object *b) {
        struct bz_branch *br = calloc(2, sizeof(*br));
        if (!br) {
                v->oom = true;
                return;
        }
        if (!json_object_is_type(b, json_type_object)) {
                issue(v, "Invalid input");
                free(br);
                return;
        }
        bz_route(&br[0], b);
        bz_acp(&br[1], b);
        if (!br[0].n || !br[1].n) {
                free(br);
                return;
        }
        /* zod: the one branch that did not abort gives its issues as they are */
        int live = !bz_aborted(&br[0]) + !bz_aborted(&br[1]);
        if (live == 1) {
                const struct bz_branch *one = bz_aborted(&br[0]) ? &br[1] : &br[0];
                for (unsigned i = 0; i < one->n; i++)
                        bz_emit(v, &one->is[i], one->is[i].msg);
                free(br);
                return;
        }
        /* invalid_union: the allowed values every branch names, else the bindings rule
         * (extractBindingsSpecificUnionIssue), else "Invalid input" */
        const char *seen[64];
        size_t nseen = 0;
        if (bz_allowed(&br[0], seen, &nseen) && bz_allowed(&br[1], seen, &nseen)) {
                char allowed[1024] = "";
                for (size_t i = 0; i < nseen && i < 12; i++) { /* at most 12 shown */
                        char q[128];
                        size_t l = strlen(allowed);
                        sbx_js_quote(q, sizeof(q), seen[i]);
                        snprintf(allowed + l, sizeof(allowed) - l, "%s%s", i ? ", " : "", q);
                }
                if (nseen > 12)
                        issue(v, "Invalid input (allowed: %s, ... (+%zu more))", allowed, nseen - 12);
                else
                        issue(v, "Invalid input (allowed: %s)", allowed);
                free(br);
                return;
        }
        bool saw_route = false;
        const struct bz_issue *best = NULL;
        unsigned branches = 0;
        for (unsigned k = 0; k < 2; k++) {
                const struct bz_branch *x = &br[k];
                bool route_mismatch = false;
                for (unsigned i = 0; i < x->n; i++)
                        if (x->is[i].code == BZ_VALUE && x->is[i].depth == 1 && !strcmp(x->is[i].seg[0], "type") &&
                            in_list(x->is[i].values, "route"))
                                route_mismatch = true;
                if (route_mismatch) {
                        saw_route = true;
                        continue;
                }
                const struct bz_issue *bb = NULL;
                for (unsigned i = 0; i < x->n; i++) {
                        const struct bz_issue *c = &x->is[i];
                        if (!bb || c->depth > bb->depth ||
                            (c->depth == bb->depth && c->code == BZ_UNRECOG && bb->code != BZ_UNRECOG))
                                bb = c;
                }
                if (bb) {
                        best = bb;
                        branches++;
                }
        }
        if (saw_route && branches == 1 && (best->depth > 0 || best->code == BZ_UNRECOG))
                bz_emit(v, best, best->msg);
        else
                issue(v, "Invalid input");
        free(br);
}

/* The ids the roster defines (normalised; "main" without a roster). */
static bool roster_has(struct json_object *root, const char *raw) {
        struct json_object *entries = jget(jget(root, "agents"), "entries");
        _cleanup_free_ char *want = sbx_normalize_agent_id(raw);
        bool any = false;
        if (!want)
                return true;
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, k, e) {
                        (void) e;
                        _cleanup_free_ char *id = sbx_normalize_agent_id(k);
                        any = true;
                        if (id && !strcmp(id, want))
                                return true;
                }
        }
        return !any && !strcmp(want, "main");
}

/* Agent references outside the roster must name a configured agent (OpenClaw's root
 * superRefine): heartbeat/systemAgent owners, talk.agentId, bindings[].agentId. */
static void v_agent_refs(struct vctx *v, struct json_object *root) {
        static const char *const refs[][3] = {
                {"agents", "defaults", "heartbeat"}, {"agents", "defaults", "systemAgent"}, {"talk", NULL, NULL}
        };
        for (size_t i = 0; i < ELEMENTSOF(refs); i++) {
                struct json_object *o = root;
                jpath p = v->path;
                for (size_t j = 0; j < 3 && refs[i][j]; j++) {
                        o = jget(o, refs[i][j]);
                        jpath_push_key(&v->path, refs[i][j]);
                }
                struct json_object *id = jget(o, "agentId");
                if (json_object_is_type(id, json_type_string) && !roster_has(root, json_object_get_string(id))) {
                        jpath_push_key(&v->path, "agentId");
                        issue(v, "Unknown agent id \"%s\" (not in agents.entries).", json_object_get_string(id));
                }
                v->path = p;
        }
        struct json_object *bindings = jget(root, "bindings");
        if (!json_object_is_type(bindings, json_type_array) ||
            !json_object_is_type(jget(jget(root, "agents"), "entries"), json_type_object))
                return;
        for (size_t i = 0; i < json_object_array_length(bindings); i++) {
                struct json_object *id = jget(json_object_array_get_idx(bindings, i), "agentId");
                if (!json_object_is_type(id, json_type_string) || !strcmp(json_object_get_string(id), "main") ||
                    roster_has(root, json_object_get_string(id)))
                        continue;
                jpath p = v->path;
                jpath_push_key(&v->path, "bindings");
                jpath_push_index(&v->path, i);
                jpath_push_key(&v->path, "agentId");
                issue(v, "Unknown agent id \"%s\" (not in agents.entries).", json_object_get_string(id));
                v->path = p;
        }
}

/* The references materializeLegacyDefaultAgentRoles gives a kept legacy default owner (at
 * load, not written back) are checked as v_agent_refs checks written ones: they name no
 * configured agent when the owner's entry is gone (an agents.list id "__proto__").
 * heartbeat: no entry and agents.defaults has none; systemAgent: unset or an object
 * without agentId (agents.defaults absent or an object); talk: the same; bindings: one per
 * channel (channels.<id>, metadata keys and enabled:false left out) with no channel-wide
 * binding (accountId "*", no peer/guild/team/roles) yet. */
static bool js_truthy(struct json_object *o);

static bool channel_wide_bound(struct json_object *bindings, const char *ch) {
        for (size_t i = 0; json_object_is_type(bindings, json_type_array) && i < json_object_array_length(bindings); i++) {
                struct json_object *b = json_object_array_get_idx(bindings, i), *m = jget(b, "match"), *c, *a;
                if (!json_object_is_type(m, json_type_object) ||
                    (json_object_is_type(jget(b, "type"), json_type_string) &&
                     !strcmp(json_object_get_string(jget(b, "type")), "acp")) ||
                    !json_object_is_type(c = jget(m, "channel"), json_type_string) ||
                    !json_object_is_type(a = jget(m, "accountId"), json_type_string) || jhas(m, "peer"))
                        continue;
                _cleanup_free_ char *cid = sbx_strdup_trim(json_object_get_string(c));
                _cleanup_free_ char *acc = sbx_strdup_trim(json_object_get_string(a));
                _cleanup_free_ char *lc = cid ? sbx_strdup_lower(cid) : NULL;
                if (lc && acc && !strcmp(lc, ch) && !strcmp(acc, "*"))
                        return true;
        }
        return false;
}

static void v_retained_refs(struct vctx *v, struct json_object *root) {
        const char *id = v->retained_default;
        if (!id || roster_has(root, id))
                return;
        struct json_object *defaults = jget(jget(root, "agents"), "defaults"), *talk = jget(root, "talk");
        jpath p = v->path;
        if (!defaults || json_object_is_type(defaults, json_type_object)) {
                static const char *const keys[] = {"heartbeat", "systemAgent"};
                for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                        struct json_object *o = jget(defaults, keys[i]);
                        bool unset = i == 0 ? !o : !o || (json_object_is_type(o, json_type_object) && !jhas(o, "agentId"));
                        if (i == 0) {
                                json_object_object_foreach(jget(jget(root, "agents"), "entries"), k, e) {
                                        (void) k;
                                        unset = unset && !js_truthy(jget(e, "heartbeat"));
                                }
                        }
                        if (!unset)
                                continue;
                        jpath_push_key(&v->path, "agents");
                        jpath_push_key(&v->path, "defaults");
                        jpath_push_key(&v->path, keys[i]);
                        jpath_push_key(&v->path, "agentId");
                        issue(v, "Unknown agent id \"%s\" (not in agents.entries).", id);
                        v->path = p;
                }
        }
        if (!talk || (json_object_is_type(talk, json_type_object) && !jhas(talk, "agentId"))) {
                jpath_push_key(&v->path, "talk");
                jpath_push_key(&v->path, "agentId");
                issue(v, "Unknown agent id \"%s\" (not in agents.entries).", id);
                v->path = p;
        }
        struct json_object *bindings = jget(root, "bindings"), *channels = jget(root, "channels");
        if ((bindings && !json_object_is_type(bindings, json_type_array)) ||
            !json_object_is_type(channels, json_type_object))
                return;
        size_t at = bindings ? json_object_array_length(bindings) : 0;
        json_object_object_foreach(channels, ch, cv) {
                _cleanup_free_ char *t = sbx_strdup_trim(ch);
                _cleanup_free_ char *lc = t ? sbx_strdup_lower(t) : NULL;
                if (!lc || !*lc || !strcmp(t, "defaults") || !strcmp(t, "modelByChannel") ||
                    (json_object_is_type(cv, json_type_object) &&
                     json_object_is_type(jget(cv, "enabled"), json_type_boolean) &&
                     !json_object_get_boolean(jget(cv, "enabled"))) ||
                    channel_wide_bound(bindings, lc))
                        continue;
                jpath_push_key(&v->path, "bindings");
                jpath_push_index(&v->path, at++);
                jpath_push_key(&v->path, "agentId");
                issue(v, "Unknown agent id \"%s\" (not in agents.entries).", id);
                v->path = p;
        }
}

/* JavaScript truthiness of a JSON value (absent: false) */
static bool js_truthy(struct json_object *o) {
        if (!o)
                return false;
        switch (json_object_get_type(o)) {
        case json_type_boolean:
                return json_object_get_boolean(o);
        case json_type_int:
                return json_object_get_int64(o) != 0;
        case json_type_double: {
                double d = json_object_get_double(o);
                return d == d && d != 0;
        }
        case json_type_string:
                return json_object_get_string_len(o) > 0;
        case json_type_null:
                return false;
        default:
                return true;
        }
}

/* browser.profiles.<name>: the profile object's refinements (OpenClaw's schema): an endpoint
 * (cdpPort or cdpUrl) unless the driver attaches by itself, userDataDir only for
 * existing-session, no cdpUrl with the extension relay. */
static void v_browser_profiles(struct vctx *v, struct json_object *root) {
        struct json_object *profiles = jget(jget(root, "browser"), "profiles");
        if (!json_object_is_type(profiles, json_type_object))
                return;
        jpath p = v->path;
        jpath_push_key(&v->path, "browser");
        jpath_push_key(&v->path, "profiles");
        json_object_object_foreach(profiles, name, prof) {
                if (!json_object_is_type(prof, json_type_object))
                        continue;
                struct json_object *d = jget(prof, "driver");
                const char *driver = json_object_is_type(d, json_type_string) ? json_object_get_string(d) : "";
                bool existing = !strcmp(driver, "existing-session"), extension = !strcmp(driver, "extension");
                jpath_push_key(&v->path, name);
                if (!existing && !extension && !js_truthy(jget(prof, "cdpPort")) && !js_truthy(jget(prof, "cdpUrl")))
                        issue(v, "Profile must set cdpPort or cdpUrl");
                if (!existing && js_truthy(jget(prof, "userDataDir")))
                        issue(v, "Profile userDataDir is only supported with driver=\"existing-session\"");
                if (extension && js_truthy(jget(prof, "cdpUrl")))
                        issue(v, "Profile cdpUrl is not supported with driver=\"extension\" (the relay owns the endpoint)");
                vpop(v);
        }
        v->path = p;
}

/* parseDurationMs (OpenClaw's CLI durations): "<n>[unit]" or contiguous "<n><unit>" segments,
 * n decimal digits with an optional fraction, unit ms, s, m, h or d (lower-cased, trimmed
 * first), the default unit for a bare number; the sum rounded to a safe integer of ms.
 * false: not a duration (OpenClaw throws). */
static bool parse_duration_ms(const char *raw, const char *default_unit, double *ret) {
        static const struct {
                const char *unit;
                double ms;
        } UNITS[] = {{"ms", 1}, {"s", 1e3}, {"m", 6e4}, {"h", 3.6e6}, {"d", 8.64e7}};
        _cleanup_free_ char *t0 = sbx_strdup_trim(raw);
        _cleanup_free_ char *t = t0 ? sbx_strdup_lower(t0) : NULL;
        if (!t || !*t)
                return false;
        double total = 0;
        bool single = true;
        for (const char *c = t; *c;) {
                const char *num = c;
                while (isdigit((unsigned char) *c))
                        c++;
                if (c == num)
                        return false;
                if (*c == '.') {
                        const char *frac = ++c;
                        while (isdigit((unsigned char) *c))
                                c++;
                        if (c == frac)
                                return false;
                }
                size_t numlen = (size_t) (c - num), ulen = 0;
                const char *unit = NULL;
                for (size_t i = 0; i < ELEMENTSOF(UNITS) && !unit; i++)
                        if (!strncmp(c, UNITS[i].unit, strlen(UNITS[i].unit))) {
                                unit = UNITS[i].unit;
                                ulen = strlen(unit);
                        }
                if (!unit) { /* a bare number: only alone, with the default unit */
                        if (*c || !single)
                                return false;
                        unit = default_unit;
                        ulen = 0;
                }
                if (numlen + strlen(unit) > 100) /* the ms package parses at most 100 characters */
                        return false;
                double mult = 0;
                for (size_t i = 0; i < ELEMENTSOF(UNITS); i++)
                        if (!strcmp(UNITS[i].unit, unit))
                                mult = UNITS[i].ms;
                _cleanup_free_ char *n = strndup(num, numlen);
                if (!n)
                        return false;
                total += strtod(n, NULL) * mult;
                c += ulen;
                single = false;
        }
        double ms = floor(total + 0.5);
        if (!(ms <= 9007199254740991.0))
                return false;
        *ret = ms;
        return true;
}

/* heartbeat.every (a duration, minutes by default) and activeHours' "HH:MM" bounds (the
 * heartbeat schema's refinement) */
static void v_heartbeat(struct vctx *v, struct json_object *hb) {
        if (!json_object_is_type(hb, json_type_object))
                return;
        struct json_object *every = jget(hb, "every");
        double ms;
        if (json_object_is_type(every, json_type_string) && json_object_get_string_len(every) &&
            !parse_duration_ms(json_object_get_string(every), "m", &ms))
                FIELD(v, hb, "every", issue(v, "invalid duration (use ms, s, m, h)"));
        struct json_object *active = jget(hb, "activeHours");
        if (!json_object_is_type(active, json_type_object))
                return;
        static const char *const BOUNDS[] = {"start", "end"};
        for (size_t i = 0; i < ELEMENTSOF(BOUNDS); i++) {
                struct json_object *b = jget(active, BOUNDS[i]);
                if (!json_object_is_type(b, json_type_string) || !json_object_get_string_len(b))
                        continue;
                const char *t = json_object_get_string(b);
                jpath p = v->path;
                jpath_push_key(&v->path, "activeHours");
                jpath_push_key(&v->path, BOUNDS[i]);
                /* /^([01]\d|2[0-3]|24):([0-5]\d)$/ */
                bool ok = strlen(t) == 5 && t[2] == ':' && isdigit((unsigned char) t[0]) && isdigit((unsigned char) t[1]) &&
                          t[3] >= '0' && t[3] <= '5' && isdigit((unsigned char) t[4]) &&
                          (t[0] <= '1' || (t[0] == '2' && t[1] <= '4'));
                if (!ok)
                        issue(v, "invalid time (use \"HH:MM\" 24h format)");
                else if (t[0] == '2' && t[1] == '4' && strcmp(t + 3, "00"))
                        issue(v, "invalid time (24:00 is the only allowed 24:xx value)");
                else if (t[0] == '2' && t[1] == '4' && i == 0)
                        issue(v, "invalid time (start cannot be 24:00)");
                v->path = p;
        }
}

/* a session.maintenance duration (PositiveDurationSchema): a string or a number as
 * JavaScript prints it, days by default, more than 0 ms */
static void v_positive_duration(struct vctx *v, struct json_object *o) {
        double ms = 0;
        bool ok;
        if (json_object_is_type(o, json_type_string))
                ok = parse_duration_ms(json_object_get_string(o), "d", &ms);
        else if (is_num(o)) {
                double d = json_object_get_double(o);
                /* String(d) has no sign and no exponent from 1e-6 up to 1e21 */
                ok = d == 0 || (d >= 1e-6 && d < 1e21);
                if (ok) {
                        ms = floor(d * 8.64e7 + 0.5);
                        ok = ms <= 9007199254740991.0;
                }
        } else
                return; /* the schema says */
        if (!ok)
                issue(v, "invalid duration (use ms, s, m, h, d)");
        else if (ms <= 0)
                issue(v, "duration must be positive (use ms, s, m, h, d), e.g. 30d");
}

static void v_talk_provider(struct vctx *v, struct json_object *talk, const char *name);
static void v_hook_mappings(struct vctx *v, struct json_object *hooks);

/* an issue was reported at PREFIX or under it */
static bool issues_under(struct vctx *v, const char *prefix) {
        size_t n = strlen(prefix);
        for (size_t i = 0; i < v->diag->issues.n; i++) {
                const char *l = v->diag->issues.v[i];
                if (!strncmp(l, prefix, n) && (l[n] == ':' || l[n] == '.' || l[n] == '['))
                        return true;
        }
        return false;
}

/* OpenClaw's isValidAgentId: /^[a-z0-9][a-z0-9_-]{0,63}$/i after trim */
static bool valid_agent_id(const char *raw) {
        _cleanup_free_ char *t = sbx_strdup_trim(raw);
        size_t n = t ? strlen(t) : 0;
        if (!n || n > 64 || !isalnum((unsigned char) t[0]))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!isalnum((unsigned char) t[i]) && t[i] != '_' && t[i] != '-')
                        return false;
        return true;
}

/* gateway.roles.definitions.*.agents: a list's entries refine isValidAgentId (the shapes
 * checked the rest); a bad one fails the union with "*" */
static void v_role_agents(struct vctx *v, struct json_object *defs) {
        if (!json_object_is_type(defs, json_type_object))
                return;
        json_object_object_foreach(defs, name, d) {
                struct json_object *agents = jget(d, "agents");
                if (!json_object_is_type(agents, json_type_array))
                        continue;
                for (size_t i = 0; i < json_object_array_length(agents); i++) {
                        struct json_object *e = json_object_array_get_idx(agents, i);
                        _cleanup_free_ char *t = json_object_is_type(e, json_type_string)
                                                         ? sbx_strdup_trim(json_object_get_string(e))
                                                         : NULL;
                        if (!t || !*t || valid_agent_id(t))
                                continue; /* not a string, or blank: the shapes said so */
                        jpath p = v->path;
                        jpath_push_key(&v->path, "gateway");
                        jpath_push_key(&v->path, "roles");
                        jpath_push_key(&v->path, "definitions");
                        jpath_push_key(&v->path, name);
                        jpath_push_key(&v->path, "agents");
                        issue(v, "Invalid input");
                        v->path = p;
                        break;
                }
        }
}

/* gateway.roles (the shapes checked its keys): zod runs the definitions record's refine when
 * the record parsed, and the object's superRefine (default names an own key of definitions);
 * here only when gateway.roles has no other issue (with one the config is refused anyway,
 * zod may list this one too) */
static void v_gateway_roles(struct vctx *v, struct json_object *roles) {
        struct json_object *defs = jget(roles, "definitions"), *def = jget(roles, "default");
        v_role_agents(v, defs);
        if (!json_object_is_type(roles, json_type_object) || issues_under(v, "gateway.roles.definitions"))
                return;
        jpath p = v->path;
        jpath_push_key(&v->path, "gateway");
        jpath_push_key(&v->path, "roles");
        bool empty = json_object_is_type(defs, json_type_object) && json_object_object_length(defs) == 0;
        if (empty) {
                jpath_push_key(&v->path, "definitions");
                issue(v, "gateway.roles.definitions must contain at least one role definition");
                vpop(v);
        }
        if (!issues_under(v, "gateway.roles") || empty) {
                /* role names are string().trim(): the default and the keys compared trimmed */
                bool named = false;
                if (json_object_is_type(def, json_type_string) && json_object_is_type(defs, json_type_object)) {
                        _cleanup_free_ char *d = sbx_strdup_trim(json_object_get_string(def));
                        json_object_object_foreach(defs, k, val) {
                                (void) val;
                                _cleanup_free_ char *t = sbx_strdup_trim(k);
                                named = named || (d && t && !strcmp(d, t));
                        }
                }
                if (json_object_is_type(def, json_type_string) && json_object_is_type(defs, json_type_object) &&
                    !named) {
                        jpath_push_key(&v->path, "default");
                        issue(v, "gateway.roles.default must name a configured role definition");
                }
        }
        v->path = p;
}

/* host h (lower-cased, idna-ascii.h's mappings made) as url.hostname gives it: each non-ASCII
 * label as its "xn--" punycode; NULL when idn_label_ok refuses one */
static char *host_to_ascii(const char *h) {
        size_t cap = strlen(h) + 1;
        for (const char *c = h; c; c = strchr(c, '.'), c = c ? c + 1 : NULL)
                cap += 4 + 8 * 256; /* idn_label_ok's bound: 256 code points a label, 8 bytes each */
        _cleanup_free_ char *r = malloc(cap + 4);
        if (!r)
                return NULL;
        size_t o = 0;
        for (const char *c = h;;) {
                size_t l = strcspn(c, "."), len = 0;
                bool idn = false;
                for (size_t i = 0; i < l; i++)
                        idn = idn || (unsigned char) c[i] >= 0x80;
                if (!idn) {
                        memcpy(r + o, c, l);
                        len = l;
                } else if (!idn_label_ok(c, l, false, r + o, &len))
                        return NULL;
                o += len;
                if (!c[l])
                        break;
                r[o++] = '.';
                c += l + 1;
        }
        r[o] = '\0';
        return TAKE_PTR(r);
}

/* portalIngressConflictsWithOrigin: new URL(origin).hostname, lower-cased, is the ingress
 * domain or under it (an origin the URL parser refuses conflicts with nothing) */
static bool ingress_conflicts(const char *domain, struct json_object *origin) {
        if (!json_object_is_type(origin, json_type_string) || !*json_object_get_string(origin))
                return false;
        _cleanup_free_ char *c = url_clean(json_object_get_string(origin), true), *scheme = NULL, *host = NULL;
        if (!c || !url_parses(c, NULL, NULL, &scheme, &host) || !host)
                return false;
        _cleanup_free_ char *hl0 = sbx_strdup_lower(host), *d = sbx_strdup_lower(domain);
        _cleanup_free_ char *h = hl0 ? host_to_ascii(hl0) : NULL;
        if (!h || !d)
                return false; /* an IDN label domainToASCII refuses: new URL throws */
        size_t hl = strlen(h), dl = strlen(d);
        return !strcmp(h, d) || (hl > dl && h[hl - dl - 1] == '.' && !strcmp(h + hl - dl, d));
}

/* isValidPortalIngressDomain: <= 220 characters, a dot, labels of letters, digits and inner
 * '-' (at most 63), not an IP; and https://portal.<domain> parses to that host lower-cased:
 * a last label the URL parser reads as an IPv4 number (digits, 0x...) throws */
static bool portal_domain(const char *d) {
        size_t n = strlen(d);
        if (n > 220 || !strchr(d, '.'))
                return false;
        const char *last = d;
        for (const char *l = d; l; l = strchr(l, '.') ? strchr(l, '.') + 1 : NULL) {
                size_t len = strcspn(l, ".");
                last = l;
                if (len < 1 || len > 63 || !isalnum((unsigned char) l[0]) || !isalnum((unsigned char) l[len - 1]))
                        return false;
                for (size_t i = 0; i < len; i++)
                        if (!isalnum((unsigned char) l[i]) && l[i] != '-')
                                return false;
        }
        if (strspn(last, "0123456789") == strlen(last))
                return false;
        if ((last[0] == '0' && (last[1] == 'x' || last[1] == 'X')) &&
            strspn(last + 2, "0123456789abcdefABCDEF") == strlen(last + 2))
                return false;
        return true;
}

/* gateway's superRefine on gateway.portals.ingress (when gateway has no other issue): its
 * domain apart from publicOrigin's and controlUi.allowedOrigins' hosts, its port not the
 * gateway's (default 18789) */
static void v_portal_ingress(struct vctx *v, struct json_object *gw) {
        struct json_object *ing = jget(jget(gw, "portals"), "ingress");
        struct json_object *dom0 = jget(ing, "domain");
        if (json_object_is_type(dom0, json_type_string) && !portal_domain(json_object_get_string(dom0))) {
                jpath p0 = v->path;
                jpath_push_key(&v->path, "gateway");
                jpath_push_key(&v->path, "portals");
                jpath_push_key(&v->path, "ingress");
                jpath_push_key(&v->path, "domain");
                issue(v, "Portal ingress domain must be a bare DNS domain");
                v->path = p0;
        }
        if (!json_object_is_type(ing, json_type_object) || issues_under(v, "gateway"))
                return;
        jpath p = v->path;
        jpath_push_key(&v->path, "gateway");
        jpath_push_key(&v->path, "portals");
        jpath_push_key(&v->path, "ingress");
        struct json_object *dom = jget(ing, "domain"), *port = jget(ing, "port"), *gport = jget(gw, "port");
        if (json_object_is_type(dom, json_type_string)) {
                const char *d = json_object_get_string(dom);
                bool clash = ingress_conflicts(d, jget(gw, "publicOrigin"));
                struct json_object *ao = jget(jget(gw, "controlUi"), "allowedOrigins");
                if (json_object_is_type(ao, json_type_array))
                        for (size_t i = 0; i < json_object_array_length(ao); i++)
                                clash = clash || ingress_conflicts(d, json_object_array_get_idx(ao, i));
                if (clash) {
                        jpath_push_key(&v->path, "domain");
                        issue(v, "Portal ingress must use a separate domain from Gateway and Control UI origins");
                        vpop(v);
                }
        }
        double gp = is_num(gport) ? json_object_get_double(gport) : 18789;
        if (is_num(port) && json_object_get_double(port) == gp) {
                jpath_push_key(&v->path, "port");
                issue(v, "Portal ingress port must differ from the Gateway port");
        }
        v->path = p;
}

/* a copy of JSON string o with JavaScript's trim() applied; an embedded NUL (none of the
 * characters the rules below look for; json5.c gives C0 80 for it) becomes \x01 so the text
 * after it is kept */
static char *js_trimmed(struct json_object *o) {
        size_t n = json_object_get_string_len(o);
        _cleanup_free_ char *c = malloc(n + 1);
        if (!c)
                return NULL;
        memcpy(c, json_object_get_string(o), n + 1);
        for (size_t i = 0; i < n; i++)
                if (!c[i])
                        c[i] = '\x01';
        return sbx_strdup_trim(c);
}

/* exec-safety's isSafeExecutableValue: trimmed, not empty, no NUL, CR/LF, shell metacharacters
 * or quotes; a path (starts with . or ~, has a slash or backslash, a drive letter) or a bare
 * name /^[A-Za-z0-9._+-]+$/ not starting with '-' */
static bool safe_executable(struct json_object *o) {
        const char *s = json_object_get_string(o);
        if (strlen(s) != (size_t) json_object_get_string_len(o) || strstr(s, "\xc0\x80")) /* NUL: C0 80 */
                return false;
        _cleanup_free_ char *t = js_trimmed(o);
        if (!t || !*t || strpbrk(t, "\r\n;&|`$<>\"'"))
                return false;
        if (t[0] == '.' || t[0] == '~' || strpbrk(t, "/\\") || (isalpha((unsigned char) t[0]) && t[1] == ':'))
                return true; /* a drive letter without a slash after it has none: covered by strpbrk */
        if (t[0] == '-')
                return false;
        for (const char *c = t; *c; c++)
                if (!isalnum((unsigned char) *c) && !strchr("._+-", *c))
                        return false;
        return true;
}

/* hooks' isSafeRelativeModulePath: trimmed, not empty, not absolute (POSIX), no '~' first, no
 * ':', no ".." among the parts split at runs of '/' and '\' */
static bool safe_relative_module(struct json_object *o) {
        _cleanup_free_ char *t = js_trimmed(o);
        if (!t || !*t || t[0] == '/' || t[0] == '~' || strchr(t, ':'))
                return false;
        for (const char *c = t; *c;) {
                size_t l = strcspn(c, "/\\");
                if (l == 2 && !strncmp(c, "..", 2))
                        return false;
                c += l;
                c += strspn(c, "/\\");
        }
        return true;
}

/* decodeURIComponent over n bytes of s (malloc'd; NULL with *urierr set when it throws: a '%'
 * without two hex digits, escapes that are not the UTF-8 of one scalar value) */
static char *uri_decode(const char *s, size_t n, bool *urierr) {
        char *r = malloc(2 * n + 1), *w = r;
        if (!r)
                return NULL;
        for (size_t i = 0; i < n;) {
                if (s[i] != '%') {
                        *w++ = s[i++];
                        continue;
                }
                unsigned char b[4];
                size_t len = 1;
                for (size_t k = 0; k < len; k++, i += 3) {
                        if (i + 2 >= n || s[i] != '%' || !isxdigit((unsigned char) s[i + 1]) ||
                            !isxdigit((unsigned char) s[i + 2]))
                                goto bad;
                        char hx[3] = {s[i + 1], s[i + 2], 0};
                        b[k] = (unsigned char) strtoul(hx, NULL, 16);
                        if (k == 0)
                                len = b[0] < 0x80 ? 1 : (b[0] & 0xE0) == 0xC0 ? 2 : (b[0] & 0xF0) == 0xE0 ? 3
                                                   : (b[0] & 0xF8) == 0xF0 ? 4 : 0;
                        else if ((b[k] & 0xC0) != 0x80)
                                goto bad;
                        if (!len)
                                goto bad;
                }
                uint32_t cp = len == 1 ? b[0] : len == 2 ? b[0] & 0x1F : len == 3 ? b[0] & 0x0F : b[0] & 0x07;
                for (size_t k = 1; k < len; k++)
                        cp = (cp << 6) | (b[k] & 0x3F);
                static const uint32_t MIN[] = {0, 0, 0x80, 0x800, 0x10000};
                if (cp < MIN[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                        goto bad;
                if (cp == 0) { /* U+0000 as sbx's strings hold it */
                        *w++ = (char) 0xC0, *w++ = (char) 0x80;
                        continue;
                }
                memcpy(w, b, len);
                w += len;
        }
        *w = '\0';
        return r;
bad:
        free(r);
        *urierr = true;
        return NULL;
}

/* OpenClaw's normalizeGitPath(user + "/" + project) is not null: a ".git" end dropped, at least
 * two segments, none empty, "." or ".." or holding '\' */
static bool git_path_ok(const char *user, const char *project) {
        _cleanup_free_ char *p = NULL;
        if (asprintf(&p, "%s/%s", user, project) < 0)
                return false;
        size_t l = strlen(p);
        if (l >= 4 && !strcmp(p + l - 4, ".git"))
                p[l - 4] = '\0';
        char *c = p + strspn(p, "/");
        unsigned n = 0;
        for (;; n++) {
                size_t sl = strcspn(c, "/");
                if (!sl || (sl == 1 && c[0] == '.') || (sl == 2 && !strncmp(c, "..", 2)) || memchr(c, '\\', sl))
                        return false;
                if (!c[sl])
                        return n >= 1;
                c += sl + 1;
        }
}

/* "[...]" as the URL parser serializes an IPv6 host: lower-case hex pieces without leading
 * zeros, the first longest run of two or more zero pieces as "::", no dotted IPv4 part (NULL
 * when it is no IPv6 address) */
static char *ipv6_serialized(const char *h) {
        size_t n = strlen(h);
        struct in6_addr a;
        _cleanup_free_ char *in = n >= 2 && h[0] == '[' && h[n - 1] == ']' ? strndup(h + 1, n - 2) : NULL;
        if (!in || inet_pton(AF_INET6, in, &a) != 1)
                return NULL;
        unsigned p[8];
        int best = -1, best_len = 1;
        for (int i = 0; i < 8; i++)
                p[i] = (unsigned) a.s6_addr[2 * i] << 8 | a.s6_addr[2 * i + 1];
        for (int i = 0; i < 8;) {
                int j = i;
                while (j < 8 && !p[j])
                        j++;
                if (j - i > best_len)
                        best = i, best_len = j - i;
                i = j > i ? j : i + 1;
        }
        char out[64] = "[", *w = out + 1;
        for (int i = 0; i < 8; i++) {
                if (i == best) {
                        w += sprintf(w, i ? ":" : "::");
                        i += best_len - 1;
                        continue;
                }
                w += sprintf(w, "%x%s", p[i], i < 7 ? ":" : "");
        }
        strcpy(w, "]");
        return strdup(out);
}

enum { HOSTED_NONE, HOSTED_SAME, HOSTED_OTHER };

/* hosted-git-info's fromUrl("https://" + key) as parseHostedGitUrl uses it, for a key whose host
 * (url.hostname, "www." dropped) is one of its hosts: HOSTED_NONE when it does not take the URL
 * (its host's extract refuses the path, a decodeURIComponent throws, normalizeGitPath is null:
 * OpenClaw reads it as a generic git URL), else whether domain/user/project gives the key back:
 * the host without "www.", every path segment taken (github: two, or user/project of a
 * "/tree/" URL; bitbucket, gist, sourcehut: two; gitlab: all, the last one the project), no
 * percent escape decoded in user or project */
static int hosted_git(const char *host, char **segs, size_t n, const char *path) {
        static const char *const DOMAINS[] = {"github.com", "bitbucket.org", "gitlab.com", "gist.github.com",
                                              "git.sr.ht", NULL};
        const char *d = strncmp(host, "www.", 4) ? host : host + 4;
        if (!in_list(DOMAINS, d) || n < 2)
                return HOSTED_NONE;
        const char *aux = n >= 3 ? segs[2] : "";
        bool gitlab = !strcmp(d, "gitlab.com");
        size_t taken = 2;
        if (!strcmp(d, "github.com") && n >= 3 && strcmp(aux, "tree"))
                return HOSTED_NONE;
        if ((!strcmp(d, "bitbucket.org") && !strcmp(aux, "get")) ||
            (!strcmp(d, "gist.github.com") && !strcmp(aux, "raw")) || (!strcmp(d, "git.sr.ht") && !strcmp(aux, "archive")))
                return HOSTED_NONE;
        if (gitlab) {
                _cleanup_free_ char *slashed = NULL;
                if (asprintf(&slashed, "/%s", path) < 0 || strstr(slashed, "/-/") || strstr(slashed, "/archive.tar.gz"))
                        return HOSTED_NONE;
                taken = n;
        }
        /* user: the segments before the project (gitlab: all but the last); the project loses a ".git" end */
        _cleanup_free_ char *user = NULL, *project = strdup(segs[taken - 1]);
        if (!project)
                return HOSTED_NONE;
        size_t pl = strlen(project);
        if (pl >= 4 && !strcmp(project + pl - 4, ".git"))
                project[pl - 4] = '\0';
        size_t ul = 0;
        for (size_t i = 0; i + 1 < taken; i++)
                ul += strlen(segs[i]) + 1;
        user = malloc(ul + 1);
        if (!user || !*project)
                return HOSTED_NONE;
        user[0] = '\0';
        for (size_t i = 0; i + 1 < taken; i++)
                strcat(strcat(user, i ? "/" : ""), segs[i]);
        bool urierr = false;
        _cleanup_free_ char *du = uri_decode(user, strlen(user), &urierr);
        _cleanup_free_ char *dp = uri_decode(project, strlen(project), &urierr);
        _cleanup_free_ char *dc = !strcmp(d, "github.com") && n >= 4 ? uri_decode(segs[3], strlen(segs[3]), &urierr) : NULL;
        if (urierr || !du || !dp || !git_path_ok(du, dp))
                return HOSTED_NONE;
        return d == host && taken == n && !strchr(user, '%') && !strchr(project, '%') ? HOSTED_SAME : HOSTED_OTHER;
}

/* cloudWorkers.projectProfiles keys: OpenClaw keeps a key only when normalizeCloudRepo
 * ("https://" + key) gives it back (parseGitUrl: stripRef, hasUnsafePathSegments, then
 * hosted-git-info, else the generic reading; lower-cased host/path). Refused: a key
 * toLowerCase changes, JavaScript white space at either end, '\\', '?', '#', tab or newline
 * anywhere; a host url.hostname does not give back as written (credentials, a port, %-escapes,
 * IPv4 numbers it rewrites or refuses, an IPv6 address not in its serialized form, non-ASCII,
 * forbidden code points); fewer than two path segments, an
 * empty, "." or ".." segment (%2e too), a ".git" end; an '@' in the path that stripRef cuts
 * there (not its first or last character); for hosted-git-info's hosts (hosted_git) a URL it
 * reads as another repository; for other URLs a path byte the URL parser percent-encodes (C0
 * controls, space, " < > ^ ` { }, DEL, non-ASCII) */
static bool repo_key_possible(const char *k) {
        const char *slash = strchr(k, '/');
        _cleanup_free_ char *lower = sbx_strdup_lower(k), *trimmed = sbx_strdup_trim(k);
        if (!slash || slash == k || !lower || !trimmed || strcmp(lower, k) || strcmp(trimmed, k) ||
            strpbrk(k, "\\?#\t\n\r"))
                return false;
        _cleanup_free_ char *host = strndup(k, (size_t) (slash - k));
        _cleanup_free_ char *hn = !host ? NULL : host[0] == '[' ? ipv6_serialized(host) : special_host(host);
        if (!hn || strcmp(hn, host) || !strcmp(host, ".") || !strcmp(host, ".."))
                return false;
        for (const unsigned char *c = (const unsigned char *) host; *c; c++)
                if (*c >= 0x80)
                        return false; /* url.hostname is ASCII (punycode) */
        const char *path = slash + 1;
        const char *at = strchr(path, '@');
        if (at == path)
                at = strchr(path + 1, '@');
        if (at && at[1])
                return false; /* stripRef cuts the path at it */
        size_t n = 0, max = 1;
        for (const char *c = path; *c; c++)
                max += *c == '/';
        _cleanup_free_ char *copy = strdup(path);
        _cleanup_free_ char **segs = calloc(max, sizeof(*segs));
        if (!copy || !segs)
                return false;
        for (char *c = copy;; n++) {
                size_t l = strcspn(c, "/");
                static const char *const DOTS[] = {".", "..", "%2e", "%2e%2e", ".%2e", "%2e.", NULL};
                bool last = !c[l];
                c[l] = '\0';
                if (!l || in_list(DOTS, c))
                        return false;
                segs[n] = c;
                if (last)
                        break;
                c += l + 1;
        }
        n++;
        size_t pl = strlen(path);
        if (n < 2 || (pl >= 4 && !strcmp(path + pl - 4, ".git")))
                return false;
        for (const unsigned char *c = (const unsigned char *) path; *c; c++)
                if (c[0] == 0xED && c[1] >= 0xA0 && c[1] <= 0xBF)
                        return false; /* an unpaired surrogate: U+FFFD to the URL parser */
        int hosted = hosted_git(host, segs, n, path);
        if (hosted != HOSTED_NONE)
                return hosted == HOSTED_SAME;
        for (const unsigned char *c = (const unsigned char *) path; *c; c++)
                if (*c <= 0x20 || *c >= 0x7f || strchr("\"<>^`{}", *c))
                        return false;
        return true;
}

static const char *jstr(struct json_object *o, const char *key);

/* JSON.stringify's length of string s: '"', '\\' and C0 escaped, a lone surrogate as \udXXX */
static size_t js_json_len(const char *s) {
        size_t n = 2;
        for (const unsigned char *c = (const unsigned char *) s; *c; c++)
                n += *c == '"' || *c == '\\' || *c == '\b' || *c == '\f' || *c == '\n' || *c == '\r' || *c == '\t' ? 2
                     : *c < 0x20                                                                                 ? 6
                     : c[0] == 0xED && c[1] >= 0xA0 && c[1] <= 0xBF                                              ? 6 - 1
                                                                                                                   : 1;
        return n;
}

/* isPluginJsonValue's walk (depth 32, 4,096 nodes, 512 keys an object, strings and keys of
 * 65,536 UTF-16 units, finite numbers); bytes sums JSON.stringify's UTF-8 length */
static bool plugin_json_ok(struct json_object *o, size_t *nodes, size_t depth, size_t *bytes) {
        if (++*nodes > 4096 || depth > 32)
                return false;
        switch (json_object_get_type(o)) {
        case json_type_null:
                *bytes += 4;
                return true;
        case json_type_boolean:
                *bytes += json_object_get_boolean(o) ? 4 : 5;
                return true;
        case json_type_string:
                *bytes += js_json_len(json_object_get_string(o));
                return sbx_js_length(json_object_get_string(o)) <= 65536;
        case json_type_int:
                *bytes += strlen(json_object_to_json_string(o));
                return true;
        case json_type_double:
                *bytes += strlen(json_object_to_json_string(o));
                return isfinite(json_object_get_double(o));
        case json_type_array: {
                size_t n = json_object_array_length(o);
                *bytes += 2 + (n ? n - 1 : 0);
                for (size_t i = 0; i < n; i++)
                        if (!plugin_json_ok(json_object_array_get_idx(o, i), nodes, depth + 1, bytes))
                                return false;
                return true;
        }
        case json_type_object: {
                size_t n = (size_t) json_object_object_length(o);
                if (n > 512)
                        return false;
                *bytes += 2 + (n ? n - 1 : 0);
                json_object_object_foreach(o, k, e) {
                        *bytes += js_json_len(k) + 1;
                        if (sbx_js_length(k) > 65536 || !plugin_json_ok(e, nodes, depth + 1, bytes))
                                return false;
                }
                return true;
        }
        default:
                return false;
        }
}

/* /<a>.?<b>/i on s: ASCII case folding only (no u flag); '.' one UTF-16 unit but no line terminator */
static bool re_dot_opt(const char *s, const char *a, const char *b) {
        size_t la = strlen(a), lb = strlen(b);
        for (const char *c = s; *c; c++) {
                if (strncasecmp(c, a, la))
                        continue;
                const unsigned char *d = (const unsigned char *) c + la;
                if (!strncasecmp((const char *) d, b, lb))
                        return true;
                size_t n = d[0] < 0x80 ? 1 : d[0] >= 0xF0 ? 0 : d[0] >= 0xE0 ? 3 : 2; /* 0: two units */
                if (!d[0] || !n || d[0] == '\n' || d[0] == '\r' || (d[0] == 0xE2 && d[1] == 0x80 && (d[2] == 0xA8 || d[2] == 0xA9)))
                        continue;
                if (!strncasecmp((const char *) d + n, b, lb))
                        return true;
        }
        return false;
}

static bool ends_with_ci(const char *s, const char *suffix) {
        size_t n = strlen(s), l = strlen(suffix);
        return n >= l && !strcasecmp(s + n - l, suffix);
}

/* isSensitiveConfigPath: "localservice.env." in the trimmed lower-cased path, or (unless it ends
 * with a whitelisted suffix) /token$/i, /password/i, /secret/i, /api.?key/i, /encrypt.?key/i,
 * /private.?key/i, /serviceaccount(?:ref)?$/i on the path as written */
static bool sensitive_path(const char *path, bool *oom) {
        static const char *const WHITE[] = {"maxtokens", "maxoutputtokens", "maxinputtokens", "maxcompletiontokens",
                                            "contexttokens", "totaltokens", "tokencount", "tokenlimit", "tokenbudget",
                                            "passwordfile"};
        _cleanup_free_ char *t = sbx_strdup_trim(path), *lower = t ? sbx_strdup_lower(t) : NULL;
        if (!lower) {
                *oom = true;
                return false;
        }
        if (strstr(lower, "localservice.env."))
                return true;
        for (size_t i = 0; i < ELEMENTSOF(WHITE); i++)
                if (strlen(lower) >= strlen(WHITE[i]) && !strcmp(lower + strlen(lower) - strlen(WHITE[i]), WHITE[i]))
                        return false;
        return ends_with_ci(path, "token") || strcasestr(path, "password") || strcasestr(path, "secret") ||
               re_dot_opt(path, "api", "key") || re_dot_opt(path, "encrypt", "key") || re_dot_opt(path, "private", "key") ||
               ends_with_ci(path, "serviceaccount") || ends_with_ci(path, "serviceaccountref");
}

/* isValidSecretRef: exactly source/provider/id; provider /^[a-z][a-z0-9_-]{0,63}$/; the id by
 * source (env and store: /^[A-Z][A-Z0-9_]{0,127}$/, file: a JSON pointer, exec: its grammar) */
static bool valid_secret_ref(struct json_object *r) {
        if (!json_object_is_type(r, json_type_object) || json_object_object_length(r) != 3)
                return false;
        const char *src = jstr(r, "source"), *prov = jstr(r, "provider"), *id = jstr(r, "id");
        if (!src || !prov || !id)
                return false;
        size_t pl = strlen(prov), il = strlen(id);
        if (pl < 1 || pl > 64 || !islower((unsigned char) prov[0]) ||
            strspn(prov, "abcdefghijklmnopqrstuvwxyz0123456789_-") != pl || !il)
                return false;
        if (!strcmp(src, "env") || !strcmp(src, "store"))
                return il <= 128 && isupper((unsigned char) id[0]) && strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == il;
        if (!strcmp(src, "file"))
                return file_secret_id_ok(id);
        return !strcmp(src, "exec") && exec_secret_id_ok(id);
}

/* validateCloudWorkerProfileSettings' first finding under o: a key that is "keyref" (any case),
 * sensitive, or sensitive without a final "ref" must hold a valid SecretRef (not looked into);
 * the others are walked (arrays too). Returns the key at fault or NULL. */
static const char *cw_settings_fault(struct json_object *o, bool *oom) {
        if (json_object_is_type(o, json_type_array)) {
                for (size_t i = 0; i < json_object_array_length(o); i++) {
                        const char *k = cw_settings_fault(json_object_array_get_idx(o, i), oom);
                        if (k)
                                return k;
                }
                return NULL;
        }
        if (!json_object_is_type(o, json_type_object))
                return NULL;
        json_object_object_foreach(o, key, child) {
                size_t n = strlen(key);
                _cleanup_free_ char *lower = sbx_strdup_lower(key), *base = n >= 3 && ends_with_ci(key, "ref") ? strndup(key, n - 3) : NULL;
                if (!lower) {
                        *oom = true;
                        return NULL;
                }
                if (!strcmp(lower, "keyref") || sensitive_path(key, oom) || (base && sensitive_path(base, oom))) {
                        if (!valid_secret_ref(child))
                                return key;
                        continue;
                }
                const char *k = cw_settings_fault(child, oom);
                if (k)
                        return k;
        }
        return NULL;
}

/* cloudWorkers.profiles.<id>.settings (CloudWorkerSettingsSchema's superRefine): bounded plain
 * JSON (isPluginJsonValue, at most 262,144 bytes as JSON.stringify writes it), then secret-bearing
 * keys as SecretRefs */
static void v_cloud_worker_settings(struct vctx *v, struct json_object *settings) {
        size_t nodes = 0, bytes = 0;
        if (!json_object_is_type(settings, json_type_object))
                return;
        if (!plugin_json_ok(settings, &nodes, 0, &bytes) || bytes > 262144) {
                issue(v, "Worker profile settings must be bounded finite JSON");
                return;
        }
        const char *k = cw_settings_fault(settings, &v->oom);
        if (k)
                issue(v, "Worker profile %s must use a SecretRef", k);
}

/* secrets.providers.<id>.command (an exec provider's): isSafeExecutableValue before the
 * absolute-path check the shapes make; hooks.mappings[].transform.module: a safe relative
 * path; desktop.host.passwordFile (trimmed): absolute (path.isAbsolute); cloudWorkers
 * project profile keys (above); profiles' suspendAfter: ends with a unit
 * (/(?:ms|s|m|h|d)$/i) and parseDurationMs >= 1m */
static void v_path_refinements(struct vctx *v, struct json_object *root) {
        jpath p = v->path;
        struct json_object *provs = jget(jget(root, "secrets"), "providers");
        if (json_object_is_type(provs, json_type_object)) {
                jpath_push_key(&v->path, "secrets");
                jpath_push_key(&v->path, "providers");
                json_object_object_foreach(provs, id, pr) {
                        struct json_object *cmd = jget(pr, "command");
                        if (!json_object_is_type(cmd, json_type_string) || !json_object_get_string_len(cmd) ||
                            safe_executable(cmd))
                                continue;
                        jpath_push_key(&v->path, id);
                        jpath_push_key(&v->path, "command");
                        issue(v, "secrets.providers.*.command is unsafe.");
                        vpop(v);
                        vpop(v);
                }
                v->path = p;
        }
        struct json_object *maps = jget(jget(root, "hooks"), "mappings");
        for (size_t i = 0; json_object_is_type(maps, json_type_array) && i < json_object_array_length(maps); i++) {
                struct json_object *mod = jget(jget(json_object_array_get_idx(maps, i), "transform"), "module");
                if (!json_object_is_type(mod, json_type_string) || safe_relative_module(mod))
                        continue;
                jpath_push_key(&v->path, "hooks");
                jpath_push_key(&v->path, "mappings");
                jpath_push_index(&v->path, i);
                jpath_push_key(&v->path, "transform");
                jpath_push_key(&v->path, "module");
                issue(v, "module must be a safe relative path (no absolute paths)");
                v->path = p;
        }
        struct json_object *pw = jget(jget(jget(root, "desktop"), "host"), "passwordFile");
        if (json_object_is_type(pw, json_type_string)) {
                _cleanup_free_ char *t = js_trimmed(pw);
                if (t && *t && t[0] != '/') {
                        jpath_push_key(&v->path, "desktop");
                        jpath_push_key(&v->path, "host");
                        jpath_push_key(&v->path, "passwordFile");
                        issue(v, "VNC passwordFile must be an absolute path");
                        v->path = p;
                }
        }
        struct json_object *projects = jget(jget(root, "cloudWorkers"), "projectProfiles");
        if (json_object_is_type(projects, json_type_object)) {
                json_object_object_foreach(projects, key, val) {
                        (void) val;
                        if (!*key || repo_key_possible(key))
                                continue;
                        jpath_push_key(&v->path, "cloudWorkers");
                        jpath_push_key(&v->path, "projectProfiles");
                        jpath_push_key(&v->path, key);
                        issue(v, "Invalid key in record");
                        v->path = p;
                }
        }
        struct json_object *profiles = jget(jget(root, "cloudWorkers"), "profiles");
        if (json_object_is_type(profiles, json_type_object)) {
                json_object_object_foreach(profiles, id, pr) {
                        jpath_push_key(&v->path, "cloudWorkers");
                        jpath_push_key(&v->path, "profiles");
                        jpath_push_key(&v->path, id);
                        jpath_push_key(&v->path, "settings");
                        v_cloud_worker_settings(v, jget(pr, "settings"));
                        v->path = p;
                        struct json_object *sa = jget(pr, "suspendAfter");
                        if (!json_object_is_type(sa, json_type_string))
                                continue;
                        const char *s = json_object_get_string(sa);
                        size_t n = json_object_get_string_len(sa);
                        char last = n ? (char) tolower((unsigned char) s[n - 1]) : 0;
                        double ms = 0;
                        bool unit = strlen(s) == (size_t) n && (last == 's' || last == 'm' || last == 'h' || last == 'd');
                        if (unit && parse_duration_ms(s, "ms", &ms) && ms >= 6e4)
                                continue;
                        jpath_push_key(&v->path, "cloudWorkers");
                        jpath_push_key(&v->path, "profiles");
                        jpath_push_key(&v->path, id);
                        jpath_push_key(&v->path, "suspendAfter");
                        issue(v, "Worker profile suspendAfter must be a duration of at least 1m");
                        v->path = p;
                }
        }
}

/* a string member of o (NULL when absent or not a string) */
static const char *jstr(struct json_object *o, const char *key) {
        struct json_object *m = jget(o, key);
        return json_object_is_type(m, json_type_string) ? json_object_get_string(m) : NULL;
}

/* mcp.servers.<name> and nodeHost.mcp.servers.<name> (McpServerSchema's superRefine; its
 * codex.default_tools_approval_mode is refused by the strict codex shape already): retired
 * keys, "disabled", per-requester OAuth only with auth "oauth", an HTTP url and no authProfileId,
 * command or stdio transport; the stdio transport needs a command that is not blank (JS trim) */
static void v_mcp_server(struct vctx *v, struct json_object *s) {
        static const char *const RETIRED[] = {"connectTimeout", "connect_timeout", "timeout", "workingDirectory",
                                              "supports_parallel_tool_calls", "ssl_verify", "client_cert",
                                              "client_key"};
        if (!json_object_is_type(s, json_type_object))
                return;
        for (size_t i = 0; i < ELEMENTSOF(RETIRED); i++)
                if (jhas(s, RETIRED[i]))
                        issue(v, "Unrecognized key: \"%s\"", RETIRED[i]);
        FIELD(v, s, "disabled", {
                if (json_object_is_type(f, json_type_boolean))
                        issue(v, "unsupported key \"disabled\"; use \"enabled: %s\" instead, then run \"openclaw doctor "
                                 "--fix\" to migrate existing config",
                              json_object_get_boolean(f) ? "false" : "true");
                else
                        issue(v, "unsupported key \"disabled\"; use the canonical \"enabled\" boolean instead");
        });
        struct json_object *oauth = jget(s, "oauth");
        const char *identity = jstr(oauth, "identity"), *transport = jstr(s, "transport"), *url = jstr(s, "url");
        const char *auth = jstr(s, "auth"), *command = jstr(s, "command");
        bool stdio = transport && !strcmp(transport, "stdio");
        if (identity && !strcmp(identity, "per-requester")) {
                const char *profile = jstr(oauth, "authProfileId");
                _cleanup_free_ char *t = profile ? sbx_strdup_trim(profile) : NULL;
                FIELD(v, s, "oauth", {
                        jpath_push_key(&v->path, "identity");
                        if (!auth || strcmp(auth, "oauth"))
                                issue(v, "oauth.identity \"per-requester\" requires auth: \"oauth\"");
                        vpop(v);
                        if (t && *t)
                                FIELD(v, f, "authProfileId",
                                      issue(v, "oauth.authProfileId cannot be used with oauth.identity \"per-requester\""));
                        jpath_push_key(&v->path, "identity");
                        if (!url || !*url)
                                issue(v, "oauth.identity \"per-requester\" requires an HTTP server URL");
                        if (jhas(s, "command") || stdio)
                                issue(v, "oauth.identity \"per-requester\" cannot be combined with a command or \"stdio\" "
                                         "transport");
                        vpop(v);
                });
        }
        if (stdio) {
                _cleanup_free_ char *t = command ? sbx_strdup_trim(command) : NULL;
                if (!t || !*t)
                        FIELD(v, s, "transport", issue(v, "\"stdio\" transport requires a non-empty command"));
        }
}

static void v_mcp_servers(struct vctx *v, struct json_object *servers) {
        if (!json_object_is_type(servers, json_type_object))
                return;
        json_object_object_foreach(servers, k, s) {
                jpath_push_key(&v->path, k);
                v_mcp_server(v, s);
                vpop(v);
        }
}

/* The refinements of OpenClaw's schema on sections sbx otherwise checks by their shapes:
 * heartbeats, legacy tools.web.search provider keys, session.maintenance durations, talk's
 * providers, persistent hook mappings, MCP servers, the path and duration rules above. */
/* gateway.remote.edgeAuth: findEdgeAuthIssue's first finding: an empty map, a header name
 * outside RFC 9110's token characters, a transport-owned header (host, connection, upgrade,
 * content-length, sec-websocket-*), two names that differ only by case */
static void v_edge_auth(struct vctx *v, struct json_object *headers) {
        static const char *const OWNED[] = {"host", "connection", "upgrade", "content-length", "sec-websocket-key",
                                            "sec-websocket-version", "sec-websocket-protocol",
                                            "sec-websocket-extensions", NULL};
        if (!json_object_is_type(headers, json_type_object))
                return;
        jpath p = v->path;
        jpath_push_key(&v->path, "gateway");
        jpath_push_key(&v->path, "remote");
        jpath_push_key(&v->path, "edgeAuth");
        if (json_object_object_length(headers) == 0)
                issue(v, "invalid gateway.remote.edgeAuth: header map must not be empty");
        json_object_object_foreach(headers, name, val) {
                (void) val;
                _cleanup_free_ char *lower = strdup(name);
                if (!lower) {
                        v->oom = true;
                        break;
                }
                bool token = *name != '\0';
                for (char *c = lower; *c; c++) {
                        token = token && (isalnum((unsigned char) *c) || strchr("!#$%&'*+-.^_`|~", *c));
                        *c = (char) tolower((unsigned char) *c);
                }
                bool owned = token && in_list(OWNED, lower);
                bool dup = false;
                json_object_object_foreach(headers, other, oval) {
                        (void) oval;
                        if (other == name || !strcmp(other, name))
                                break; /* only the names before this one */
                        if (!strcasecmp(other, name))
                                dup = true;
                }
                if (!token || owned || dup) {
                        jpath_push_key(&v->path, name);
                        if (!token)
                                issue(v, "invalid gateway.remote.edgeAuth header name: \"%s\"", name);
                        else if (owned)
                                issue(v, "gateway.remote.edgeAuth cannot set transport-owned header \"%s\"", name);
                        else
                                issue(v, "gateway.remote.edgeAuth header names differ only by case: \"%s\"", name);
                        break;
                }
        }
        v->path = p;
}

static char puny_digit(uint64_t d) {
        return (char) (d < 26 ? 'a' + d : '0' + (d - 26));
}

/* the RFC 3492 punycode of cp[0..n) (without "xn--") written to o (when not NULL; at most
 * 8 bytes a code point): its length */
static size_t punycode(const uint32_t *cp, size_t n, char *o) {
        uint64_t next = 128, delta = 0, bias = 72;
        size_t b = 0, out = 0;
        for (size_t i = 0; i < n; i++)
                if (cp[i] < 0x80) {
                        if (o)
                                o[out] = (char) cp[i];
                        out++;
                }
        b = out;
        if (b) {
                if (o)
                        o[out] = '-';
                out++;
        }
        for (size_t h = b; h < n;) {
                uint64_t m = UINT64_MAX;
                for (size_t i = 0; i < n; i++)
                        if (cp[i] >= next && cp[i] < m)
                                m = cp[i];
                delta += (m - next) * (h + 1);
                next = m;
                for (size_t i = 0; i < n; i++) {
                        if (cp[i] < next)
                                delta++;
                        if (cp[i] != next)
                                continue;
                        uint64_t q = delta;
                        for (uint64_t k = 36;; k += 36) {
                                uint64_t t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
                                if (q < t)
                                        break;
                                if (o)
                                        o[out] = puny_digit(t + (q - t) % (36 - t));
                                out++;
                                q = (q - t) / (36 - t);
                        }
                        if (o)
                                o[out] = puny_digit(q);
                        out++;
                        delta = h == b ? delta / 700 : delta / 2; /* adapt */
                        delta += delta / (h + 1);
                        uint64_t k = 0;
                        while (delta > 455) {
                                delta /= 35;
                                k += 36;
                        }
                        bias = k + (36 * delta) / (delta + 38);
                        delta = 0;
                        h++;
                }
                delta++;
                next++;
        }
        if (o)
                o[out] = '\0';
        return out;
}

static bool cp_in(uint32_t cp, const uint32_t (*r)[2], size_t n) {
        for (size_t i = 0; i < n; i++)
                if (cp >= r[i][0] && cp <= r[i][1])
                        return true;
        return false;
}

static int idna_refused_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key;
        const uint32_t *r = elem;
        return k < r[0] ? -1 : k > r[1];
}

static int idna_bidi_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key;
        const struct idna_bidi_range *r = elem;
        return k < r->from ? -1 : k > r->to;
}

/* a kept code point's Bidi class (idna-map.h; ASCII: letters L, digits EN, the rest O) */
static enum idna_bidi bidi_class(uint32_t cp) {
        if (cp < 0x80)
                return isalpha((int) cp) ? IDNA_L : isdigit((int) cp) ? IDNA_EN : IDNA_O;
        const struct idna_bidi_range *r = bsearch(&cp, IDNA_BIDI, ELEMENTSOF(IDNA_BIDI), sizeof(IDNA_BIDI[0]), idna_bidi_cmp);
        return r ? r->k : IDNA_L;
}

static int idna_map_cmp(const void *key, const void *elem) {
        uint32_t k = *(const uint32_t *) key, e = ((const struct idna_map *) elem)->cp;
        return k < e ? -1 : k > e;
}

/* a non-ASCII label of domainToASCII's input (after idna_ascii's mappings): refused for a code
 * point UTS 46 refuses anywhere (idna-map.h: unassigned, disallowed) and for the context rules
 * sbx tells without more of Unicode's tables (ZWNJ/ZWJ, which CONTEXTJ allows only after a
 * virama; with dns, ASCII other than [a-z0-9-]), the other code points mapped as idna-map.h
 * says, then the label in NFC (unicode-nfc.c), refused when it starts with a mark (one
 * domainToASCII refuses there: unicode-nfc.h's IDNA_MARK) and for the Bidi rule with idna-map.h's classes; else its "xn--" form
 * in ret_ascii (when not NULL; 4 + 8 bytes a code point of the mapped label) and its length in
 * *ret_len. */
static bool idn_label_ok(const char *l, size_t bytes, bool dns, char *ret_ascii, size_t *ret_len) {
        static const uint32_t BAD[][2] = {{0x80, 0x9F}, {0x200C, 0x200D}, {0xD800, 0xDFFF}, {0xE000, 0xF8FF},
                                          {0xFDD0, 0xFDEF}, {0xFFFD, 0xFFFD}, {0xE0000, 0xE00FF}, {0xF0000, 0x10FFFF}};
        uint32_t cps[256];
        size_t n = 0;
        bool rtl = false, ltr = false, an = false, en = false;
        for (const unsigned char *p = (const unsigned char *) l, *e = p + bytes; p < e;) {
                size_t k = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
                uint32_t cp = k == 1 ? *p : (uint32_t) (*p & (0xFF >> (k + 1)));
                if ((size_t) (e - p) < k)
                        return false; /* a truncated sequence: U+FFFD, refused */
                for (size_t i = 1; i < k; i++) {
                        if ((p[i] & 0xC0) != 0x80)
                                return false;
                        cp = (cp << 6) | (p[i] & 0x3F);
                }
                if (k == 1 && (*p >= 0x80 || (dns && !strchr("abcdefghijklmnopqrstuvwxyz0123456789-", *p))))
                        return false; /* not UTF-8, or kept as is in the punycode: the label regex */
                p += k;
                if (cp_in(cp, BAD, ELEMENTSOF(BAD)) || (cp & 0xFFFE) == 0xFFFE ||
                    bsearch(&cp, IDNA_REFUSED, ELEMENTSOF(IDNA_REFUSED), sizeof(IDNA_REFUSED[0]), idna_refused_cmp))
                        return false;
                const struct idna_map *m = bsearch(&cp, IDNA_MAP, ELEMENTSOF(IDNA_MAP), sizeof(IDNA_MAP[0]), idna_map_cmp);
                for (const unsigned char *t = m ? (const unsigned char *) IDNA_MAP_TEXT + m->to : NULL; t && *t;) {
                        size_t tk = *t < 0x80 ? 1 : *t >= 0xF0 ? 4 : *t >= 0xE0 ? 3 : 2;
                        uint32_t c = tk == 1 ? *t : (uint32_t) (*t & (0xFF >> (tk + 1)));
                        for (size_t i = 1; i < tk; i++)
                                c = (c << 6) | (t[i] & 0x3F);
                        t += tk;
                        if (dns && c < 0x80 && !strchr("abcdefghijklmnopqrstuvwxyz0123456789-", (int) c))
                                return false; /* a mapping to ASCII the label regex refuses ("(" of U+3235) */
                        if (n == ELEMENTSOF(cps))
                                return false; /* its punycode is longer than 63 */
                        cps[n++] = c;
                }
                if (!m) {
                        if (n == ELEMENTSOF(cps))
                                return false;
                        cps[n++] = cp;
                }
        }
        /* UTS 46 normalizes the mapped label to NFC before its checks */
        uint32_t nfc[4 * ELEMENTSOF(cps)];
        n = sbx_unicode_nfc(cps, n, nfc, ELEMENTSOF(nfc));
        if (n == SIZE_MAX)
                return false;
        memcpy(cps, nfc, (n < ELEMENTSOF(cps) ? n : ELEMENTSOF(cps)) * sizeof(cps[0]));
        if (n > ELEMENTSOF(cps))
                return false; /* its punycode is longer than 63 */
        if (n > 0 && sbx_unicode_is_mark(cps[0]))
                return false;
        /* the Bidi rule on a label with right-to-left characters (R, AL, AN): it starts with R
         * or AL, holds no L, ends with R, AL, EN or AN (then marks), not both EN and AN */
        enum idna_bidi last = IDNA_L;
        for (size_t i = 0; i < n; i++) {
                enum idna_bidi k = bidi_class(cps[i]);
                rtl = rtl || k == IDNA_R || k == IDNA_AN;
                ltr = ltr || k == IDNA_L;
                an = an || k == IDNA_AN;
                en = en || k == IDNA_EN;
                if (k != IDNA_NSM)
                        last = k;
        }
        if (rtl && (ltr || (an && en) || bidi_class(cps[0]) != IDNA_R ||
                    !(last == IDNA_R || last == IDNA_AN || last == IDNA_EN)))
                return false;
        if (ret_ascii)
                memcpy(ret_ascii, "xn--", 4);
        *ret_len = 4 + punycode(cps, n, ret_ascii ? ret_ascii + 4 : NULL);
        return true;
}

/* normalizeExactAllowedHost (secrets.egressProxy allowed/bypass hosts) does not throw: trimmed,
 * lower-cased, trailing dots dropped; no '*'; an IP address ([IPv6] too), or a name without ':',
 * white space, '/', '?', '#', '@' whose domainToASCII has labels of [a-z0-9-] (1-63, no '-' at
 * an end), 253 at most; a non-ASCII label counts as its "xn--" punycode form, checked as
 * idn_label_ok says. */
/* OpenClaw's normalizeExactAllowedHost: NULL when raw is an exact host, else which of its three
 * refusals applies (the message's format, with the host as written for %s) */
static const char *exact_host_error(const char *raw) {
        static const char *const WILDCARD = "Allowed host %s cannot contain a wildcard; use one exact hostname.";
        static const char *const SHAPE = "Allowed host %s must be a hostname without a scheme, path, wildcard, or port.";
        static const char *const INVALID = "Allowed host %s is not a valid hostname.";
        _cleanup_free_ char *t0 = sbx_strdup_trim(raw), *t = t0 ? sbx_strdup_lower(t0) : NULL;
        if (!t)
                return NULL;
        size_t n = strlen(t);
        while (n && t[n - 1] == '.')
                t[--n] = '\0';
        if (strchr(t, '*'))
                return WILDCARD;
        char *h = t;
        if (n >= 2 && t[0] == '[' && t[n - 1] == ']')
                h = t + 1, t[n - 1] = '\0';
        struct in_addr a4;
        struct in6_addr a6;
        _cleanup_free_ char *nozone = strndup(h, strcspn(h, "%"));
        if (inet_pton(AF_INET, h, &a4) == 1 || (nozone && inet_pton(AF_INET6, nozone, &a6) == 1))
                return NULL;
        if (!*h || strpbrk(h, ": \t\n\v\f\r/?#@"))
                return SHAPE;
        _cleanup_free_ char *ascii = special_host(h);
        if (!ascii)
                return INVALID;
        for (char *c = ascii; *c; c++) /* a %-escape may decode to upper case */
                *c = (char) tolower((unsigned char) *c);
        size_t total = 0;
        for (const char *c = ascii;;) {
                size_t l = strcspn(c, "."), len = l;
                bool idn = false;
                for (size_t i = 0; i < l; i++)
                        idn = idn || (unsigned char) c[i] >= 0x80;
                if (idn ? !idn_label_ok(c, l, true, NULL, &len)
                        : !l || c[0] == '-' || c[l - 1] == '-' || strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789-") < l)
                        return INVALID;
                total += len + !!c[l];
                if (len > 63 || total > 253)
                        return INVALID;
                if (!c[l])
                        return NULL;
                c += l + 1;
        }
}

static void v_egress_hosts(struct vctx *v, struct json_object *proxy) {
        static const char *const LISTS[] = {"allowedHosts", "bypassHosts"};
        jpath p = v->path;
        for (size_t k = 0; k < ELEMENTSOF(LISTS); k++) {
                struct json_object *l = jget(proxy, LISTS[k]);
                for (size_t i = 0; json_object_is_type(l, json_type_array) && i < json_object_array_length(l); i++) {
                        struct json_object *e = json_object_array_get_idx(l, i);
                        const char *why = json_object_is_type(e, json_type_string)
                                                  ? exact_host_error(json_object_get_string(e))
                                                  : NULL;
                        if (!why)
                                continue;
                        jpath_push_key(&v->path, "secrets");
                        jpath_push_key(&v->path, "egressProxy");
                        jpath_push_key(&v->path, LISTS[k]);
                        jpath_push_index(&v->path, i);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
                        char q[1024]; /* the host JSON.stringify'd, as OpenClaw prints it */
                        sbx_js_quote(q, sizeof(q), json_object_get_string(e));
                        issue(v, why, q);
#pragma GCC diagnostic pop
                        v->path = p;
                }
        }
}

static void v_refinements(struct vctx *v, struct json_object *root) {
        static const char *const LEGACY_SEARCH[] = {"brave", "duckduckgo", "exa", "firecrawl", "gemini", "grok", "kimi",
                                                     "minimax", "ollama", "perplexity", "searxng", "tavily", NULL};
        jpath p = v->path;
        struct json_object *agents = jget(root, "agents");
        v_egress_hosts(v, jget(jget(root, "secrets"), "egressProxy"));
        if (!issues_under(v, "gateway.remote.edgeAuth")) /* the record parsed first */
                v_edge_auth(v, jget(jget(jget(root, "gateway"), "remote"), "edgeAuth"));
        FIELD(v, root, "agents", FIELD(v, f, "defaults", FIELD(v, f, "heartbeat", v_heartbeat(v, f))));
        struct json_object *entries = jget(agents, "entries");
        if (json_object_is_type(entries, json_type_object))
                FIELD(v, root, "agents", FIELD(v, f, "entries", json_object_object_foreach(entries, k, e) {
                              jpath_push_key(&v->path, k);
                              FIELD(v, e, "heartbeat", v_heartbeat(v, f));
                              vpop(v);
                      }));
        struct json_object *search = jget(jget(jget(root, "tools"), "web"), "search");
        if (json_object_is_type(search, json_type_object)) {
                jpath_push_key(&v->path, "tools");
                jpath_push_key(&v->path, "web");
                jpath_push_key(&v->path, "search");
                json_object_object_foreach(search, k, e) {
                        jpath_push_key(&v->path, k);
                        if (!strcmp(k, "constructor") || !strcmp(k, "prototype"))
                                issue(v, "tools.web.search must not contain blocked object keys");
                        else if (!strcmp(k, "apiKey") || (in_list(LEGACY_SEARCH, k) && json_object_is_type(e, json_type_object)))
                                issue(v, "legacy web_search provider config must use plugins.entries.<plugin>.config.webSearch");
                        vpop(v);
                }
                v->path = p;
        }
        struct json_object *maint = jget(jget(root, "session"), "maintenance");
        if (json_object_is_type(maint, json_type_object)) {
                static const char *const DURATIONS[] = {"pruneAfter", "archiveDashboardAfter", "preserveRecent",
                                                        "resetArchiveRetention"};
                jpath_push_key(&v->path, "session");
                jpath_push_key(&v->path, "maintenance");
                for (size_t i = 0; i < ELEMENTSOF(DURATIONS); i++) {
                        struct json_object *d = jget(maint, DURATIONS[i]);
                        bool off = json_object_is_type(d, json_type_boolean) && !json_object_get_boolean(d);
                        bool zero = i == 1 && is_num(d) && json_object_get_double(d) == 0; /* literal(0) */
                        if (d && !(i > 0 && off) && !zero)
                                FIELD(v, maint, DURATIONS[i], v_positive_duration(v, f));
                }
                v->path = p;
        }
        v_gateway_roles(v, jget(jget(root, "gateway"), "roles"));
        v_portal_ingress(v, jget(root, "gateway"));
        v_talk_provider(v, jget(root, "talk"), "talk");
        v_talk_provider(v, jget(jget(root, "talk"), "realtime"), "talk.realtime");
        v_hook_mappings(v, jget(root, "hooks"));
        FIELD(v, root, "mcp", FIELD(v, f, "servers", v_mcp_servers(v, f)));
        FIELD(v, root, "nodeHost", FIELD(v, f, "mcp", FIELD(v, f, "servers", v_mcp_servers(v, f))));
        v_path_refinements(v, root);
}

/* a non-blank string (JavaScript trim) */
static bool js_nonblank(struct json_object *o) {
        if (!json_object_is_type(o, json_type_string))
                return false;
        _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(o));
        return t && *t;
}

/* hooks.mappings[]: a persistent agent mapping needs a session key somewhere, or a transform */
static void v_hook_mappings(struct vctx *v, struct json_object *hooks) {
        struct json_object *maps = jget(hooks, "mappings");
        if (!json_object_is_type(maps, json_type_array) || js_nonblank(jget(hooks, "defaultSessionKey")))
                return;
        for (size_t i = 0; i < json_object_array_length(maps); i++) {
                struct json_object *m = json_object_array_get_idx(maps, i), *action = jget(m, "action");
                struct json_object *mode = jget(m, "sessionMode");
                if (!json_object_is_type(m, json_type_object) ||
                    (action && !(json_object_is_type(action, json_type_string) && !strcmp(json_object_get_string(action), "agent"))) ||
                    !json_object_is_type(mode, json_type_string) || strcmp(json_object_get_string(mode), "persistent") ||
                    js_nonblank(jget(m, "sessionKey")) || js_truthy(jget(m, "transform")))
                        continue;
                jpath p = v->path;
                jpath_push_key(&v->path, "hooks");
                jpath_push_key(&v->path, "mappings");
                jpath_push_index(&v->path, i);
                jpath_push_key(&v->path, "sessionKey");
                issue(v, "persistent hook mappings require sessionKey, hooks.defaultSessionKey, or a transform");
                v->path = p;
        }
}

/* talk and talk.realtime: provider (trimmed, lower-cased) names a key of providers, and is
 * required with several */
static void v_talk_provider(struct vctx *v, struct json_object *talk, const char *name) {
        struct json_object *prov = jget(talk, "provider"), *provs = jget(talk, "providers");
        jpath p = v->path;
        if (json_object_is_type(talk, json_type_object)) {
                _cleanup_free_ char *t0 = json_object_is_type(prov, json_type_string) ? sbx_strdup_trim(json_object_get_string(prov)) : NULL;
                _cleanup_free_ char *want = t0 ? sbx_strdup_lower(t0) : NULL;
                int n = json_object_is_type(provs, json_type_object) ? json_object_object_length(provs) : 0;
                jpath_push_key(&v->path, "talk");
                if (strcmp(name, "talk"))
                        jpath_push_key(&v->path, "realtime");
                jpath_push_key(&v->path, "provider");
                if (want && *want && n > 0 && !jhas(provs, want))
                        issue(v, "%s.provider must match a key in %s.providers (missing \"%s\")", name, name, want);
                if ((!want || !*want) && n > 1)
                        issue(v, "%s.provider is required when %s.providers defines multiple providers", name, name);
                v->path = p;
        }
}

/* A broadcast peer key names its channel: /^[a-z][a-z0-9_-]*:.+$/i (no line terminator
 * after the colon: JavaScript's '.'). */
static bool channel_qualified(const char *k) {
        const char *c = k;
        if (!((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z'))
                return false;
        while (*c && *c != ':') {
                if (!(isalnum((unsigned char) *c) || *c == '_' || *c == '-'))
                        return false;
                c++;
        }
        if (*c != ':' || !c[1])
                return false;
        for (c++; *c; c++)
                if (*c == '\n' || *c == '\r' || !strncmp(c, "\xe2\x80\xa8", 3) || !strncmp(c, "\xe2\x80\xa9", 3))
                        return false;
        return true;
}

/* An id broadcast may name: a roster key as written (unnormalised, entries that are objects),
 * "main" without a roster (the materialised default). */
static bool roster_key(struct json_object *root, const char *id) {
        struct json_object *entries = jget(jget(root, "agents"), "entries");
        bool any = false;
        if (json_object_is_type(entries, json_type_object)) {
                json_object_object_foreach(entries, k, e) {
                        if (!json_object_is_type(e, json_type_object))
                                continue;
                        any = true;
                        if (!strcmp(k, id))
                                return true;
                }
        }
        return !any && !strcmp(id, "main");
}

/* broadcast (BroadcastSchema's refinement, then the root's): group options need a
 * channel-qualified key, a qualified agent list holds at most 16 agents, and every agent
 * named is a roster key exactly as written. */
static void v_broadcast(struct vctx *v, struct json_object *root) {
        struct json_object *b = jget(root, "broadcast");
        if (!json_object_is_type(b, json_type_object))
                return;
        jpath p = v->path;
        jpath_push_key(&v->path, "broadcast");
        json_object_object_foreach(b, peer, entry) {
                bool arr = json_object_is_type(entry, json_type_array);
                if (!arr && !json_object_is_type(entry, json_type_object))
                        continue;
                bool qualified = channel_qualified(peer);
                jpath_push_key(&v->path, peer);
                if (!arr && !qualified)
                        issue(v, "Group options require a channel-qualified key (<channel>:<peerId>).");
                else if (arr && qualified && json_object_array_length(entry) > 16)
                        issue(v, "Agent group threads support at most 16 agents.");
                if (strcmp(peer, "strategy")) {
                        struct json_object *ids = arr ? entry : jget(entry, "agents");
                        if (!arr)
                                jpath_push_key(&v->path, "agents");
                        for (size_t i = 0; json_object_is_type(ids, json_type_array) && i < json_object_array_length(ids); i++) {
                                struct json_object *id = json_object_array_get_idx(ids, i);
                                if (json_object_is_type(id, json_type_string) && roster_key(root, json_object_get_string(id)))
                                        continue;
                                jpath_push_index(&v->path, i);
                                issue(v, "Unknown agent id \"%s\" (not in agents.entries).",
                                      json_object_is_type(id, json_type_string) ? json_object_get_string(id) : json_object_to_json_string(id));
                                vpop(v);
                        }
                        if (!arr)
                                vpop(v);
                }
                vpop(v);
        }
        v->path = p;
}

/* Two agents must not share an agentDir (their auth and session state): the entry's
 * agentDir (~ expanded, resolved), else <state dir>/agents/<id>/agent, for every
 * configured agent and every agent a binding names (findDuplicateAgentDirs). */
static int dir_owner_add(sbx_strv *ids, sbx_strv *dirs, struct json_object *entries, const char *raw) {
        _cleanup_free_ char *id = sbx_normalize_agent_id(raw);
        if (!id)
                return -ENOMEM;
        if (sbx_strv_contains(ids, id))
                return 0;
        _cleanup_free_ char *dir = NULL;
        json_object_object_foreach(entries, k, e) {
                _cleanup_free_ char *kid = sbx_normalize_agent_id(k);
                struct json_object *d = jget(e, "agentDir");
                if (!kid || strcmp(kid, id) || !json_object_is_type(d, json_type_string))
                        continue;
                _cleanup_free_ char *t = sbx_strdup_trim(json_object_get_string(d));
                if (t && *t)
                        dir = sbx_expand_user_path(t);
                break;
        }
        if (!dir) {
                _cleanup_free_ char *state = sbx_state_dir();
                if (!state || asprintf(&dir, "%s/agents/%s/agent", state, id) < 0)
                        return -ENOMEM;
        }
        if (sbx_strv_push(ids, id) < 0 || sbx_strv_push(dirs, dir) < 0)
                return -ENOMEM;
        return 0;
}

static void v_agent_dirs(struct vctx *v, struct json_object *root) {
        struct json_object *entries = jget(jget(root, "agents"), "entries"), *bindings = jget(root, "bindings");
        _cleanup_(sbx_strv_free) sbx_strv ids = {}, dirs = {};

        if (!json_object_is_type(entries, json_type_object))
                return;
        json_object_object_foreach(entries, k, e) {
                (void) e;
                if (dir_owner_add(&ids, &dirs, entries, k) < 0)
                        goto oom;
        }
        for (size_t i = 0; json_object_is_type(bindings, json_type_array) && i < json_object_array_length(bindings);
             i++) {
                struct json_object *id = jget(json_object_array_get_idx(bindings, i), "agentId");
                _cleanup_free_ char *t =
                        json_object_is_type(id, json_type_string) ? sbx_strdup_trim(json_object_get_string(id)) : NULL;
                if (t && *t && dir_owner_add(&ids, &dirs, entries, t) < 0)
                        goto oom;
        }
        /* OpenClaw throws DuplicateAgentDirError: its message's lines are the issues, no path */
        bool dup = false;
        for (size_t i = 0; i < dirs.n && !dup; i++)
                for (size_t j = 0; j < i && !dup; j++)
                        dup = !strcmp(dirs.v[i], dirs.v[j]);
        if (!dup)
                return;
        static const char *const HEAD[] = {
                "Each agent must have a unique agentDir; sharing it causes auth/session state collisions and token "
                "invalidation.",
                "Conflicts:",
        };
        for (size_t i = 0; i < ELEMENTSOF(HEAD); i++)
                if (sbx_strv_push(&v->diag->issues, HEAD[i]) < 0)
                        goto oom;
        for (size_t i = 0; i < dirs.n; i++) {
                bool first = true, more = false;
                for (size_t j = 0; j < dirs.n; j++)
                        if (!strcmp(dirs.v[i], dirs.v[j]) && j != i)
                                more = true, first = first && j > i;
                if (!more || !first)
                        continue; /* a directory once, at its first owner */
                char line[2048];
                size_t l = (size_t) snprintf(line, sizeof(line), "%s:", dirs.v[i]);
                for (size_t j = i; j < dirs.n && l < sizeof(line); j++) {
                        bool seen = false;
                        for (size_t k = i; k < j; k++)
                                seen = seen || (!strcmp(dirs.v[k], dirs.v[j]) && !strcmp(ids.v[k], ids.v[j]));
                        if (strcmp(dirs.v[i], dirs.v[j]) || seen)
                                continue;
                        char q[512];
                        sbx_js_quote(q, sizeof(q), ids.v[j]);
                        l += (size_t) snprintf(line + l, sizeof(line) - l, "%s %s", j > i ? "," : "", q);
                }
                if (sbx_strv_push(&v->diag->issues, line) < 0)
                        goto oom;
        }
        if (sbx_strv_push(&v->diag->issues, "Fix: remove the shared agents.entries.*.agentDir override (or give "
                                            "each agent its own directory).") < 0 ||
            sbx_strv_push(&v->diag->issues,
                          "Auth profiles live in each agent's SQLite store, so a shared agentDir is not how "
                          "credentials are shared: give each agent its own directory and either leave its store "
                          "empty to inherit the main agent's profiles, or log it in with `openclaw models auth "
                          "login`.") < 0)
                goto oom;
        return;
oom:
        v->oom = true;
}

/* env: the process-environment section: shellEnv (a strict object: enabled, timeoutMs) and
 * vars (strings) only */
static void v_env(struct vctx *v, struct json_object *o) {
        static const char *const keys[] = {"shellEnv", "vars", NULL};
        static const struct vfield shell[] = {{"enabled", V_BOOL}, {"timeoutMs", V_INT_NONNEG}, {NULL}};
        if (!check_object(v, o, keys))
                return;
        FIELD(v, o, "shellEnv", v_object(v, f, NULL, shell)); /* the schema's order */
        FIELD(v, o, "vars", MEMBERS(v, f, v_string(v, m, false)));
}

static void dedup_issues(sbx_config_diag *d) {
        size_t o = 0;
        for (size_t i = 0; i < d->issues.n; i++) {
                bool dup = false;
                for (size_t j = 0; j < o; j++)
                        if (!strcmp(d->issues.v[j], d->issues.v[i]))
                                dup = true;
                if (dup)
                        free(d->issues.v[i]);
                else
                        d->issues.v[o++] = d->issues.v[i];
        }
        d->issues.n = o;
        if (d->issues.v)
                d->issues.v[o] = NULL;
}

/* the providers OpenClaw 2026.9.6 bundles (BUILT_IN_MODEL_PROVIDER_OVERLAY_IDS): an entry of
 * models.providers with another id is a custom provider, which needs baseUrl and models */
static const char *const BUNDLED_PROVIDERS[] = {
        "amazon-bedrock", "amazon-bedrock-mantle", "anthropic", "anthropic-vertex", "arcee",
        "azure-openai-responses", "byteplus", "byteplus-plan", "cerebras", "chutes", "claude-cli", "clawrouter",
        "cloudflare-ai-gateway", "codex", "comfy", "copilot-proxy", "dashscope", "deepinfra", "deepseek", "fal",
        "fireworks", "github-copilot", "gmi", "gmi-cloud", "gmicloud", "google", "google-antigravity",
        "google-gemini-cli", "google-vertex", "groq", "huggingface", "kilocode", "kimi", "kimi-coding", "litellm",
        "lmstudio", "meta", "microsoft-foundry", "minimax", "minimax-portal", "mistral", "modelstudio",
        "moonshot", "moonshot-ai", "moonshotai", "nvidia", "novita", "novita-ai", "novitaai", "ollama",
        "ollama-cloud", "openai", "opencode", "opencode-go", "openrouter", "qianfan", "qwen", "qwen-token-plan",
        "qwencloud", "sglang", "stepfun", "stepfun-plan", "synthetic", "tencent-tokenhub", "tencent-tokenplan",
        "together", "venice", "vercel-ai-gateway", "vllm", "volcengine", "volcengine-plan", "vydra", "x-ai", "xai",
        "xiaomi", "xiaomi-token-plan", "z.ai", "z-ai", "zai", NULL,
};

static void v_model_providers(struct vctx *v, struct json_object *providers) {
        if (!json_object_is_type(providers, json_type_object))
                return;
        json_object_object_foreach(providers, id, p) {
                _cleanup_free_ char *t = sbx_strdup_trim(id), *norm = t ? sbx_strdup_lower(t) : NULL;
                if (!norm) {
                        v->oom = true;
                        return;
                }
                if (!json_object_is_type(p, json_type_object) || in_list(BUNDLED_PROVIDERS, norm))
                        continue;
                struct json_object *base = jget(p, "baseUrl");
                jpath_push_key(&v->path, id);
                if (!json_object_is_type(base, json_type_string) || !json_object_get_string_len(base)) {
                        jpath_push_key(&v->path, "baseUrl");
                        issue(v, "custom model providers must declare baseUrl; provider overlays without baseUrl "
                                 "are only supported for bundled providers");
                        vpop(v);
                }
                if (!json_object_is_type(jget(p, "models"), json_type_array)) {
                        jpath_push_key(&v->path, "models");
                        issue(v, "custom model providers must declare models; provider overlays without models are "
                                 "only supported for bundled providers");
                        vpop(v);
                }
                vpop(v);
        }
}

/* session.maintenance.maxDiskBytes (unless false) and highWaterBytes: byte sizes, as
 * strings or numbers (OpenClaw's refinement of the object) */
static void v_maintenance_sizes(struct vctx *v, struct json_object *o) {
        static const char *const KEYS[] = {"maxDiskBytes", "highWaterBytes"};
        if (!json_object_is_type(o, json_type_object))
                return;
        for (size_t i = 0; i < ELEMENTSOF(KEYS); i++)
                FIELD(v, o, KEYS[i], {
                        bool ok = json_object_is_type(f, json_type_string)  ? byte_size(json_object_get_string(f))
                                  : is_num(f)                               ? byte_size_number(json_object_get_double(f))
                                                                            : true; /* the schema says */
                        if (!ok)
                                issue(v, "invalid size (use b, kb, mb, gb, tb)");
                });
}

/* where an issue goes in zod's order: its root key's place in the root object's shape (zod
 * checks the keys in that order), then the root's own issues (unrecognized keys) and lines
 * without a path */
static size_t root_rank(const char *issue) {
        size_t n = strspn(issue, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$");
        if (n && (issue[n] == '.' || issue[n] == '[' || issue[n] == ':'))
                for (size_t i = 0; ROOT_KEYS[i]; i++)
                        if (strlen(ROOT_KEYS[i]) == n && !strncmp(ROOT_KEYS[i], issue, n))
                                return i;
        return SIZE_MAX;
}

/* The schema pass's issues (from index FROM) in zod's order: sbx checks the sections it reads
 * first, OpenClaw in the root's key order (a stable sort: each section's own order stays). */
static void root_order(sbx_config_diag *d, size_t from) {
        for (size_t i = from + 1; i < d->issues.n; i++) {
                char *x = d->issues.v[i];
                size_t r = root_rank(x), j = i;
                for (; j > from && root_rank(d->issues.v[j - 1]) > r; j--)
                        d->issues.v[j] = d->issues.v[j - 1];
                d->issues.v[j] = x;
        }
}

void sbx_config_validate_tree(struct json_object *root, struct vctx *v) {
        size_t before = v->diag->issues.n;

        if (!check_object(v, root, ROOT_KEYS))
                return;
        v_shapes(v, root, "root");
        FIELD(v, root, "models", FIELD(v, f, "providers", v_model_providers(v, f)));
        FIELD(v, root, "agents", v_agents(v, f));
        FIELD(v, root, "tools", v_tools(v, f, false));
        FIELD(v, root, "session", {
                if (check_object(v, f, SESSION_KEYS)) {
                        v_shapes(v, f, "session");
                        FIELD(v, f, "mainKey", v_string(v, f, false));
                        FIELD(v, f, "maintenance", v_maintenance_sizes(v, f));
                        FIELD(v, f, "scope", {
                                static const char *const sc[] = {"per-sender", "global", NULL};
                                v_enum(v, f, sc);
                        });
                }
        });
        FIELD(v, root, "channels", v_channels(v, f));
        FIELD(v, root, "env", v_env(v, f));
        FIELD(v, root, "bindings", ELEMENTS(v, f, v_binding(v, e)));
        v_agent_refs(v, root);
        v_retained_refs(v, root);
        v_broadcast(v, root);
        v_browser_profiles(v, root);
        v_refinements(v, root);
        v_agent_dirs(v, root);
        pending_flush(v, 0);
        root_order(v->diag, before);
        /* validateConfigObjectRaw: the sandbox's container env after a clean schema pass; the
         * channels' plugin checks (validatePreparedConfigWithPlugins) only after it */
        if (v->diag->issues.n == before)
                v_container_env(v, root);
        if (v->diag->issues.n == before)
                v_channel_plugins(v, root);
        if (v->diag->issues.n == before) /* the registry's checks follow a clean schema pass */
                sbx_config_validate_plugins(root, v);
        dedup_issues(v->diag);
}
