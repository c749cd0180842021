/* SPDX-License-Identifier: MIT */
/* The config's env.vars: copied into the environment that ${VAR} substitution reads,
 * like OpenClaw 2026.9.6's applyConfigEnvVars: a value is used only when it is a
 * non-blank string without ${...} references, its name is portable and not one of the
 * host-dangerous names below, and the process environment has no non-blank value of
 * its own (the process environment wins). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config-internal.h"
#include "util/util.h"
#include "policy.h"

/* OpenClaw's host env security policy (blocked everywhere and blocked as overrides),
 * upper case, sorted for bsearch. Arrays, not pointers: no relocation at start-up (the
 * longest name has 38 characters; the comparison never reads past BLOCKED_LEN). */
#define BLOCKED_LEN 48
static const char BLOCKED[][BLOCKED_LEN] = {
        "ALL_PROXY", "AMQP_URL", "ANSIBLE_CALLBACK_PLUGINS", "ANSIBLE_COLLECTIONS_PATH",
        "ANSIBLE_CONFIG", "ANSIBLE_CONNECTION_PLUGINS", "ANSIBLE_FILTER_PLUGINS",
        "ANSIBLE_INVENTORY_PLUGINS", "ANSIBLE_LIBRARY", "ANSIBLE_LOOKUP_PLUGINS",
        "ANSIBLE_MODULE_UTILS", "ANSIBLE_REMOTE_TEMP", "ANSIBLE_ROLES_PATH",
        "ANSIBLE_STRATEGY_PLUGINS", "ANT_OPTS", "AWS_ACCESS_KEY_ID", "AWS_CONFIG_FILE",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_SECRET_ACCESS_KEY", "AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN",
        "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AZURE_AUTH_LOCATION",
        "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "BASHOPTS", "BASH_ENV", "BROWSER",
        "BUNDLE_GEMFILE", "BUN_CONFIG_REGISTRY", "BZR_EDITOR", "BZR_PLUGIN_PATH", "BZR_SSH",
        "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_BUILD_RUSTDOC", "CARGO_HOME", "CATALINA_OPTS", "CC", "CFLAGS", "CGO_CFLAGS",
        "CGO_LDFLAGS", "CLASSPATH", "CMAKE_CXX_COMPILER", "CMAKE_C_COMPILER",
        "CMAKE_TOOLCHAIN_FILE", "COMPOSER_HOME", "CONDA_DEFAULT_ENV", "CONDA_PREFIX",
        "CONFIG_SHELL", "CONFIG_SITE", "CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "CPATH",
        "CPLUS_INCLUDE_PATH", "CPP", "CURL_CA_BUNDLE", "CURL_HOME", "CXX", "CXXCPP",
        "C_INCLUDE_PATH", "DATABASE_URL", "DENO_DIR", "DOCKER_CERT_PATH", "DOCKER_CONTEXT",
        "DOCKER_HOST", "DOCKER_TLS_VERIFY", "DOTNET_ADDITIONAL_DEPS", "DOTNET_STARTUP_HOOKS",
        "EDITOR", "ELIXIR_ERL_OPTIONS", "EMACSLOADPATH", "ENV", "ERL_AFLAGS", "ERL_FLAGS",
        "ERL_ZFLAGS", "EXINIT", "FCEDIT", "FPATH", "GCONV_PATH", "GEM_HOME", "GEM_PATH", "GH_TOKEN",
        "GITHUB_TOKEN", "GITLAB_TOKEN", "GIT_ALLOW_PROTOCOL", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_ASKPASS", "GIT_COMMON_DIR", "GIT_DIR", "GIT_EDITOR", "GIT_EXEC_PATH",
        "GIT_EXTERNAL_DIFF", "GIT_HOOK_PATH", "GIT_INDEX_FILE", "GIT_NAMESPACE",
        "GIT_OBJECT_DIRECTORY", "GIT_PAGER", "GIT_PROTOCOL_FROM_USER", "GIT_PROXY_COMMAND",
        "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH",
        "GIT_SSL_NO_VERIFY", "GIT_TEMPLATE_DIR", "GIT_WORK_TREE", "GLIBC_TUNABLES", "GOENV",
        "GOFLAGS", "GONOPROXY", "GONOSUMCHECK", "GONOSUMDB", "GOOGLE_APPLICATION_CREDENTIALS",
        "GOPATH", "GOPRIVATE", "GOPROXY", "GRADLE_OPTS", "GRADLE_USER_HOME", "GVIMINIT",
        "HELM_HOME", "HELM_PLUGINS", "HGEDITOR", "HGMERGE", "HGRCPATH", "HISTFILE", "HOME",
        "HOSTALIASES", "HTTPS_PROXY", "HTTP_PROXY", "IFS", "JAVA_OPTS", "JAVA_TOOL_OPTIONS",
        "JDK_JAVA_OPTIONS", "JULIA_EDITOR", "KSH_ENV", "KUBECONFIG", "LDFLAGS", "LESSCLOSE",
        "LESSOPEN", "LIBRARY_PATH", "LUA_CPATH", "LUA_INIT", "LUA_INIT_5_1", "LUA_INIT_5_2",
        "LUA_INIT_5_3", "LUA_INIT_5_4", "LUA_PATH", "MAKE", "MAKEFLAGS", "MANPAGER", "MAVEN_OPTS",
        "MFLAGS", "MONGODB_URI", "MYVIMRC", "NODE_AUTH_TOKEN", "NODE_EXTRA_CA_CERTS",
        "NODE_OPTIONS", "NODE_PATH", "NODE_REDIRECT_WARNINGS", "NODE_REPL_EXTERNAL_MODULE",
        "NODE_REPL_HISTORY", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_V8_COVERAGE", "NO_PROXY",
        "NPM_TOKEN", "OBJC_INCLUDE_PATH", "OPENSSL_CONF", "OPENSSL_ENGINES", "PACKER_PLUGIN_PATH",
        "PAGER", "PERL5DB", "PERL5DBCMD", "PERL5LIB", "PERL5OPT", "PHPRC", "PHP_INI_SCAN_DIR",
        "PIP_CONFIG_FILE", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_PYPI_URL",
        "PIP_TRUSTED_HOST", "PROMPT_COMMAND", "PS4", "PYTHONBREAKPOINT", "PYTHONHOME", "PYTHONPATH",
        "PYTHONSTARTUP", "PYTHONUSERBASE", "REDIS_URL", "REQUESTS_CA_BUNDLE", "RUBYLIB", "RUBYOPT",
        "RUBYSHELL", "RUSTC", "RUSTC_WORKSPACE_WRAPPER", "RUSTC_WRAPPER", "RUSTDOC", "RUSTFLAGS",
        "RUSTUP_DIST_ROOT", "RUSTUP_DIST_SERVER", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN",
        "RUSTUP_UPDATE_ROOT", "R_ENVIRON", "R_ENVIRON_USER", "R_LIBS_USER", "R_PROFILE",
        "R_PROFILE_USER", "SBT_OPTS", "SHELL", "SHELLOPTS", "SSH_ASKPASS", "SSH_AUTH_SOCK",
        "SSLKEYLOGFILE", "SSL_CERT_DIR", "SSL_CERT_FILE", "SUDO_ASKPASS", "SUDO_EDITOR",
        "SVN_EDITOR", "SVN_SSH", "SYSTEMROOT", "TCLLIBPATH", "TF_CLI_CONFIG_FILE",
        "TF_PLUGIN_CACHE_DIR", "UV_DEFAULT_INDEX", "UV_EXTRA_INDEX_URL", "UV_INDEX", "UV_INDEX_URL",
        "UV_PYTHON", "VAGRANT_VAGRANTFILE", "VIMINIT", "VIRTUAL_ENV", "VISUAL", "WGETRC", "WINDIR",
        "XDG_CACHE_HOME", "XDG_CONFIG_DIRS", "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_DATA_HOME",
        "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "YARN_RC_FILENAME", "ZDOTDIR", "_JAVA_OPTIONS",
};
static const char *const BLOCKED_PREFIXES[] = {
        "DYLD_", "LD_", "BASH_FUNC_", "GIT_CONFIG_", "NPM_CONFIG_", "CARGO_REGISTRIES_", "TF_VAR_",
        NULL,
};

static int cmp(const void *key, const void *elem) {
        return strncmp(key, elem, BLOCKED_LEN);
}

static bool portable(const char *k) {
        if (!(k[0] == '_' || (k[0] >= 'A' && k[0] <= 'Z') || (k[0] >= 'a' && k[0] <= 'z')))
                return false;
        for (const char *c = k; *c; c++)
                if (!(*c == '_' || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
                        return false;
        return true;
}

static bool blocked(const char *k) {
        _cleanup_free_ char *u = strdup(k);
        if (!u)
                return true;
        for (char *c = u; *c; c++)
                if (*c >= 'a' && *c <= 'z')
                        *c = (char) (*c - 'a' + 'A');
        if (bsearch(u, BLOCKED, ELEMENTSOF(BLOCKED), sizeof(BLOCKED[0]), cmp))
                return true;
        for (size_t i = 0; BLOCKED_PREFIXES[i]; i++)
                if (!strncmp(u, BLOCKED_PREFIXES[i], strlen(BLOCKED_PREFIXES[i])))
                        return true;
        size_t n = strlen(u);
        if (!strncmp(u, "CARGO_TARGET_", 13) &&
            ((n > 20 && !strcmp(u + n - 7, "_LINKER")) || (n > 20 && !strcmp(u + n - 7, "_RUNNER"))))
                return true;
        return !strcmp(u, "OPENCLAW_ALLOW_OLDER_BINARY_DESTRUCTIVE_ACTIONS") ||
               !strcmp(u, "OPENCLAW_INCLUDE_ROOTS") || !strcmp(u, "OPENCLAW_CONFIG_READONLY");
}

/* OpenClaw's parseEnvTokenAt: at s (a '$'), "$${NAME}" is an escape and "${NAME}" a
 * substitution when the text up to the next '}' is a name ([A-Z_][A-Z0-9_]*, any length);
 * "$${name}" (not a name) is no escape, its "${" no substitution either. */
enum sbx_env_token sbx_config_env_token(const char *s, const char **name, size_t *namelen, const char **end) {
        enum sbx_env_token kind = SBX_ENV_NONE;
        const char *p = NULL;
        if (s[0] != '$')
                return SBX_ENV_NONE;
        if (s[1] == '$' && s[2] == '{')
                kind = SBX_ENV_ESCAPED, p = s + 3;
        else if (s[1] == '{')
                kind = SBX_ENV_SUBST, p = s + 2;
        else
                return SBX_ENV_NONE;
        const char *close = strchr(p, '}');
        if (!close || close == p || !((*p >= 'A' && *p <= 'Z') || *p == '_'))
                return SBX_ENV_NONE;
        for (const char *q = p; q < close; q++)
                if (!((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_'))
                        return SBX_ENV_NONE;
        *name = p;
        *namelen = (size_t) (close - p);
        *end = close + 1;
        return kind;
}

/* a ${NAME} substitution (containsEnvVarReference: an escape is skipped whole) */
static bool has_reference(const char *s) {
        for (const char *p = s; (p = strchr(p, '$'));) {
                const char *name, *end;
                size_t n;
                switch (sbx_config_env_token(p, &name, &n, &end)) {
                case SBX_ENV_SUBST:
                        return true;
                case SBX_ENV_ESCAPED:
                        p = end;
                        break;
                default:
                        p++;
                }
        }
        return false;
}

static bool blank(const char *s) {
        for (; *s; s++)
                if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r' && *s != '\f' && *s != '\v')
                        return false;
        return true;
}

/* The value a process environment holds once Node stores the string: cut at a NUL (C0 80 in
 * sbx's strings), an unpaired surrogate (its 3-byte form) as U+FFFD. */
static char *env_value(const char *s) {
        char *r = strdup(s), *o = r;
        for (const unsigned char *p = (const unsigned char *) s; r && *p;) {
                if (p[0] == 0xC0 && p[1] == 0x80)
                        break;
                if (p[0] == 0xED && p[1] >= 0xA0 && p[1] <= 0xBF && (p[2] & 0xC0) == 0x80) {
                        memcpy(o, "\xef\xbf\xbd", 3);
                        o += 3;
                        p += 3;
                } else
                        *o++ = (char) *p++;
        }
        if (r)
                *o = 0;
        return r;
}

int sbx_config_env_vars(struct json_object *root, sbx_strv *ret) {
        struct json_object *vars = jget(jget(root, "env"), "vars");
        *ret = (sbx_strv){};
        if (!json_object_is_type(vars, json_type_object))
                return 0;
        json_object_object_foreach(vars, rawk, val) {
                if (!json_object_is_type(val, json_type_string))
                        continue;
                const char *s = json_object_get_string(val);
                _cleanup_free_ char *k = sbx_strdup_trim(rawk);
                if (!k)
                        return -ENOMEM;
                if (blank(s) || !portable(k) || blocked(k) || has_reference(s))
                        continue;
                const char *cur = getenv(k);
                if (cur && !blank(cur))
                        continue;
                _cleanup_free_ char *stored = env_value(s);
                if (!stored || sbx_strv_push(ret, k) < 0 || sbx_strv_push(ret, stored) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* OpenClaw copies the usable env.vars into its process environment at load (after
 * $include, before ${VAR}); whatever it reads from the environment after that (the home,
 * state and workspace dirs, OPENCLAW_PROFILE) sees them. The loader sets them here. */
static sbx_strv applied;

int sbx_config_env_apply(const sbx_strv *vars) {
        sbx_strv_free(&applied);
        for (size_t i = 0; vars && i < vars->n; i++)
                if (sbx_strv_push(&applied, vars->v[i]) < 0)
                        return -ENOMEM;
        return 0;
}

const char *sbx_policy_getenv(const char *name) {
        return sbx_config_env_lookup(&applied, name);
}

const char *sbx_config_env_lookup(const sbx_strv *vars, const char *name) {
        for (size_t i = 0; vars && i + 1 < vars->n; i += 2)
                if (!strcmp(vars->v[i], name))
                        return vars->v[i + 1];
        return getenv(name);
}
