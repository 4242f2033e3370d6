package localstdio

import (
	"sort"
	"strings"
)

// The environment servers get: an allowlist of what language servers
// need from the host's environment, the server's configured passEnv
// names, then its configured env map.
//
// An allowlist, not a filter of suspicious names: credentials hide under
// any name (GH_PAT, DATABASE_URL, MYSQL_PWD, SENTRY_DSN, a proxy URL with
// a password), and a server needs few variables. Even an allowed name is
// dropped when it looks like a credential (KEY, PASSWORD, SECRET, TOKEN,
// AUTH, CRED, PAT as a word) or its value carries one (a URL with
// user:password@); passEnv and env are the explicit ways around that.
// lspseam's own LSPSEAM_* never pass.

// allowedNames are passed as they are.
var allowedNames = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true, "TERM": true,
	"LANG": true, "LANGUAGE": true, "TZ": true, "TMPDIR": true, "TMP": true, "TEMP": true,
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true,
	"http_proxy": true, "https_proxy": true, "all_proxy": true, "no_proxy": true,
	"SSL_CERT_FILE": true, "SSL_CERT_DIR": true,
	"VIRTUAL_ENV": true, "CONDA_PREFIX": true, "CONDA_DEFAULT_ENV": true,
	"JAVA_HOME": true, "CC": true, "CXX": true, "PKG_CONFIG_PATH": true, "LD_LIBRARY_PATH": true,
}

// allowedPrefixes are toolchain and locale families.
var allowedPrefixes = []string{"LC_", "XDG_", "GO", "CGO_", "NODE_", "NPM_CONFIG_", "npm_config_", "PYTHON", "PIP_", "UV_", "CARGO_", "RUSTUP_", "CLANGD_"}

// credentialWords make even an allowed name private.
var credentialWords = []string{"KEY", "PASSWORD", "PASSWD", "SECRET", "TOKEN", "AUTH", "CRED", "PAT", "PWD"}

// passesAllowlist reports whether a host variable reaches servers without
// being named in passEnv.
func passesAllowlist(name, value string) bool {
	allowed := allowedNames[name]
	for _, p := range allowedPrefixes {
		allowed = allowed || strings.HasPrefix(name, p)
	}
	if !allowed {
		return false
	}
	for _, word := range strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool { return r == '_' || r == '-' }) {
		for _, c := range credentialWords {
			if word == c || (len(c) > 3 && strings.Contains(word, c)) {
				return false
			}
		}
	}
	return !hasURLCredentials(value)
}

// hasURLCredentials reports a URL with user information (scheme://user@
// or scheme://user:password@) anywhere in value.
func hasURLCredentials(value string) bool {
	for rest := value; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		host := rest
		if j := strings.IndexAny(host, "/?# ,;"); j >= 0 {
			host = host[:j]
		}
		if strings.Contains(host, "@") {
			return true
		}
	}
}

// ServerEnv builds a server's environment from the host environment
// (os.Environ form): the allowlisted variables, then the passEnv names
// (whatever they hold), then the configured extra variables, which may set
// any name. LSPSEAM_* variables of the host never pass.
func ServerEnv(host []string, passEnv []string, extra map[string]string) []string {
	pass := map[string]bool{}
	for _, n := range passEnv {
		pass[n] = true
	}
	vars := map[string]string{}
	var order []string
	for _, kv := range host {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.HasPrefix(strings.ToUpper(name), "LSPSEAM_") {
			continue
		}
		if !pass[name] && !passesAllowlist(name, value) {
			continue
		}
		if _, seen := vars[name]; !seen {
			order = append(order, name)
		}
		vars[name] = value
	}
	extraNames := make([]string, 0, len(extra))
	for name := range extra {
		extraNames = append(extraNames, name)
	}
	sort.Strings(extraNames)
	for _, name := range extraNames {
		if _, seen := vars[name]; !seen {
			order = append(order, name)
		}
		vars[name] = extra[name]
	}
	env := make([]string, 0, len(order))
	for _, name := range order {
		env = append(env, name+"="+vars[name])
	}
	return env
}

// lookupEnv reads a variable from an os.Environ-form list.
func lookupEnv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if n, v, ok := strings.Cut(env[i], "="); ok && n == name {
			return v
		}
	}
	return ""
}
