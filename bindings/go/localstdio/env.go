package localstdio

import (
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// The environment servers get: an allowlist of exact names — a common
// base plus the toolchain variables of the server's language — then the
// server's configured passEnv names, then its configured env map.
//
// Exact names, not families and not a filter of suspicious names:
// credentials hide under any name (GH_PAT, DATABASE_URL, SENTRY_DSN), and
// a family prefix admits whatever shares it — GO* let GOOGLE_APIKEY,
// GOOGLE_SERVICE_ACCOUNT_JSON, GOOSE_DBSTRING and GO_DSN through, NODE_*
// let NODE_APIKEY. A server needs few variables, and they can be named.
// Even an allowed name is dropped when its value carries a credential (a
// URL with user:password@, a DSN's password=, user:password@host, a JSON
// "private_key":, a PEM private key); passEnv and env are the explicit
// ways around that. lspseam's own LSPSEAM_* never pass.

// baseNames reach every server: the shell's basics, the locale, temporary
// directories, the XDG base directories, proxies and certificate paths.
var baseNames = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TMP", "TEMP",
	"LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_MONETARY", "LC_NUMERIC", "LC_TIME",
	"LC_ADDRESS", "LC_IDENTIFICATION", "LC_MEASUREMENT", "LC_NAME", "LC_PAPER", "LC_TELEPHONE",
	"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS",
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR",
}

// windowsNames reach every server on Windows beside baseNames: where the
// system, the user's profile and programs are, and how commands are found
// and run (PATHEXT, ComSpec). Names are matched without regard to case
// there, as Windows does (Path is PATH).
var windowsNames = []string{
	"USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432",
	"COMMONPROGRAMFILES", "COMMONPROGRAMFILES(X86)", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT",
	"HOMEDRIVE", "HOMEPATH", "USERNAME", "USERDOMAIN", "COMPUTERNAME", "OS", "PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS",
}

// goNames are what gopls and the go command it runs need (cgo's compilers
// and flags included: go list runs them for packages that use cgo).
var goNames = []string{
	"GOPATH", "GOROOT", "GOBIN", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB",
	"GOMODCACHE", "GOCACHE", "GOENV", "GOTMPDIR", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386",
	"GOTOOLCHAIN", "GOWORK", "GOEXPERIMENT", "GOINSECURE", "GOVCS", "GO111MODULE", "GOPACKAGESDRIVER",
	"GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG",
	"CGO_ENABLED", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS", "CC", "CXX", "PKG_CONFIG", "PKG_CONFIG_PATH",
}

// nodeNames are what Node.js servers (typescript-language-server and the
// tsserver it runs, pyright) need.
var nodeNames = []string{
	"NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS",
	"npm_config_cache", "npm_config_registry", "npm_config_prefix", "npm_config_userconfig", "npm_config_globalconfig",
	"NPM_CONFIG_CACHE", "NPM_CONFIG_REGISTRY", "NPM_CONFIG_PREFIX", "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG",
}

// pythonNames are what Python servers need to find the interpreter and
// environment whose packages they resolve.
var pythonNames = []string{
	"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONNOUSERSITE", "PYTHONSAFEPATH", "PYTHONPYCACHEPREFIX",
	"PYTHONUTF8", "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE",
	"VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYENV_ROOT", "PYENV_VERSION",
}

// cNames are what clangd needs to find headers, libraries and compilers.
var cNames = []string{
	"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH",
	"PKG_CONFIG_PATH", "CC", "CXX", "SDKROOT", "DEVELOPER_DIR", "CLANGD_FLAGS",
}

// rustNames are what rust-analyzer and the cargo it runs need.
var rustNames = []string{"CARGO_HOME", "CARGO_TARGET_DIR", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "RUSTFLAGS", "RUST_SRC_PATH"}

// javaNames are what Java servers need.
var javaNames = []string{"JAVA_HOME", "JDK_HOME", "GRADLE_USER_HOME", "MAVEN_HOME"}

// toolchainsOf names, by command (its base name), the toolchain variables
// a server gets beyond baseNames: the presets' servers and common others.
// A command not listed gets every toolchain's (unionNames): lspseam does
// not know its language, and those names are exact and value-checked all
// the same.
var toolchainsOf = map[string][][]string{
	"gopls":                      {goNames},
	"typescript-language-server": {nodeNames},
	"vtsls":                      {nodeNames},
	"pyright-langserver":         {nodeNames, pythonNames},
	"basedpyright-langserver":    {nodeNames, pythonNames},
	"pylsp":                      {pythonNames},
	"jedi-language-server":       {pythonNames},
	"clangd":                     {cNames},
	"ccls":                       {cNames},
	"rust-analyzer":              {rustNames, cNames},
	"jdtls":                      {javaNames},
}

// unionNames are every toolchain's names: what a server whose command
// toolchainsOf does not list gets beyond baseNames.
var unionNames = [][]string{goNames, nodeNames, pythonNames, cNames, rustNames, javaNames}

// credentialWords, as a whole word of the key of an assignment in a value
// (key=… or "key":), make that value private. Words are split at _ - .
// and lower-to-upper case changes, so db_password=, "private_key": and
// apiKey= count, and author= does not.
var credentialWords = []string{"KEY", "APIKEY", "PASSWORD", "PASSWD", "PASSPHRASE", "PWD", "SECRET", "TOKEN", "AUTH", "CRED", "CREDS", "CREDENTIAL", "CREDENTIALS", "PAT"}

// allowedFor is the set of host names a server running command gets
// without passEnv, upper-cased when windows (whose names are matched
// without regard to case).
func allowedFor(command string, windows bool) map[string]bool {
	base := filepath.Base(command)
	if windows {
		base = windowsCommandBase(command)
	}
	lists, known := toolchainsOf[base]
	if !known {
		lists = unionNames
	}
	lists = append([][]string{baseNames}, lists...)
	if windows {
		lists = append(lists, windowsNames)
	}
	allowed := map[string]bool{}
	for _, list := range lists {
		for _, name := range list {
			allowed[envKey(name, windows)] = true
		}
	}
	return allowed
}

// windowsCommandBase is a Windows command's name without its directory
// (either separator) or executable extension: C:\tools\gopls.exe is gopls.
func windowsCommandBase(command string) string {
	if i := strings.LastIndexAny(command, `/\:`); i >= 0 {
		command = command[i+1:]
	}
	if ext := filepath.Ext(command); ext != "" && slices.Contains(strings.Split(defaultPathext+";.PS1", ";"), strings.ToUpper(ext)) {
		command = strings.TrimSuffix(command, ext)
	}
	return command
}

// envKey is how a variable name is compared: as it is, or upper-cased on
// Windows.
func envKey(name string, windows bool) string {
	if windows {
		return strings.ToUpper(name)
	}
	return name
}

var (
	// assignmentKey finds key= and "key": in a value.
	assignmentKey = regexp.MustCompile(`([A-Za-z0-9_.\-]+)\s*=|"([^"]*)"\s*:`)
	// userPassword finds user:password@host without a scheme (a Go MySQL
	// DSN, app:pw@tcp(db)/app). The password may not start with / so PATH
	// lists (a:/b@c) do not match.
	userPassword = regexp.MustCompile(`(^|[\s,;=])[^\s:/@,;=]+:[^\s/@:,;][^\s@,;]*@`)
)

// hasCredential reports whether a value carries a credential: a URL with
// user information, user:password@host, an assignment to a credential
// word (password=…, "private_key":…) or a PEM private key.
func hasCredential(value string) bool {
	if hasURLCredentials(value) || userPassword.MatchString(value) || strings.Contains(value, "PRIVATE KEY-----") {
		return true
	}
	for _, m := range assignmentKey.FindAllStringSubmatch(value, -1) {
		if isCredentialName(m[1] + m[2]) {
			return true
		}
	}
	return false
}

// isCredentialName reports whether a word of name is a credential word.
func isCredentialName(name string) bool {
	for _, word := range splitWords(name) {
		for _, c := range credentialWords {
			if word == c {
				return true
			}
		}
	}
	return false
}

// splitWords splits a name into upper-cased words at _ - . and where a
// lower-case letter is followed by an upper-case one.
func splitWords(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	for _, r := range name {
		if r == '_' || r == '-' || r == '.' || (prevLower && unicode.IsUpper(r)) {
			if len(cur) > 0 {
				words = append(words, strings.ToUpper(string(cur)))
			}
			cur = cur[:0]
		}
		if r != '_' && r != '-' && r != '.' {
			cur = append(cur, r)
		}
		prevLower = unicode.IsLower(r)
	}
	if len(cur) > 0 {
		words = append(words, strings.ToUpper(string(cur)))
	}
	return words
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

// ServerEnv builds the environment of a server running command from the
// host environment (os.Environ form): the allowlisted variables for that
// command (baseNames and its toolchains' names, each value free of
// credentials), then the passEnv names (whatever they hold), then the
// configured extra variables, which may set any name. LSPSEAM_* variables
// of the host never pass.
func ServerEnv(host []string, command string, passEnv []string, extra map[string]string) []string {
	return serverEnv(envFold, host, command, passEnv, extra)
}

// serverEnv is ServerEnv by Windows' rules (names compared without regard
// to case, windowsNames allowed) or Unix's: tests run both anywhere.
func serverEnv(windows bool, host []string, command string, passEnv []string, extra map[string]string) []string {
	allowed := allowedFor(command, windows)
	pass := map[string]bool{}
	for _, n := range passEnv {
		pass[envKey(n, windows)] = true
	}
	// vars is keyed by envKey; a name keeps the spelling it first came
	// with (Windows' Path stays Path).
	vars := map[string]string{}
	spelling := map[string]string{}
	var order []string
	set := func(name, value string) {
		key := envKey(name, windows)
		if _, seen := vars[key]; !seen {
			order = append(order, key)
			spelling[key] = name
		}
		vars[key] = value
	}
	for _, kv := range host {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.HasPrefix(strings.ToUpper(name), "LSPSEAM_") {
			continue
		}
		key := envKey(name, windows)
		if !pass[key] && !(allowed[key] && !hasCredential(value)) {
			continue
		}
		set(name, value)
	}
	extraNames := make([]string, 0, len(extra))
	for name := range extra {
		extraNames = append(extraNames, name)
	}
	sort.Strings(extraNames)
	for _, name := range extraNames {
		set(name, extra[name])
	}
	env := make([]string, 0, len(order))
	for _, key := range order {
		env = append(env, spelling[key]+"="+vars[key])
	}
	return env
}

// lookupEnv reads a variable from an os.Environ-form list.
func lookupEnv(env []string, name string) string {
	return lookupEnvFold(env, name, envFold)
}

// envFold: variable names are case-insensitive on Windows (Path is PATH).
var envFold = runtime.GOOS == "windows"

// lookupEnvFold is lookupEnv comparing names case-insensitively if fold.
func lookupEnvFold(env []string, name string, fold bool) string {
	for i := len(env) - 1; i >= 0; i-- {
		if n, v, ok := strings.Cut(env[i], "="); ok && (n == name || fold && strings.EqualFold(n, name)) {
			return v
		}
	}
	return ""
}
