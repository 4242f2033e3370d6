package core

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Validation of the local stdio provider's configuration: the server table
// of docs/design.md with its defaults filled in. A config with any bad entry is
// rejected whole, so a host never registers half of it.

// Defaults of the server table.
const (
	DefaultMaxMessageBytes   = 16_000_000
	DefaultMaxStderrBytes    = 1_000_000
	DefaultMaxDocumentBytes  = 4_000_000
	DefaultShutdownTimeoutMs = 5_000
	DefaultKillGraceMs       = 2_000
	DefaultTimeoutMs         = 60_000
	DefaultMaxRequestBytes   = 8_000_000
	DefaultMaxOpenDocuments  = 64
	DefaultIdleTimeoutMs     = 1_800_000

	maxRootMarkers      = 32
	maxMaxOpenDocuments = 100_000
)

// Config is a validated configuration.
type Config struct {
	// Servers maps a provider id to its server.
	Servers map[string]ServerConfig `json:"servers"`
	// TimeoutMs is the tool's budget for one call (queue, start, open,
	// query, close).
	TimeoutMs int64 `json:"timeoutMs"`
	// MaxRequestBytes bounds one message from a client of `serve` (a
	// harness); a bigger one is refused unread.
	MaxRequestBytes int64 `json:"maxRequestBytes"`
	// Approval is how the mutating refactor tools apply changes:
	// ApprovalPreview (the default), ApprovalAuto or ApprovalElicit. A
	// host's own setting (the shim's --approval) wins over it.
	Approval string `json:"approval"`
}

// Approval modes of the refactor tools (the config's approval).
const (
	// ApprovalPreview answers a change with its diff and a previewId and
	// applies it when the same call comes back with that previewId.
	ApprovalPreview = "preview"
	// ApprovalAuto applies a change at once.
	ApprovalAuto = "auto"
	// ApprovalElicit is ApprovalPreview whose previews an MCP server shows
	// the user (elicitation) and applies on their accept; without an MCP
	// client that can ask the user, it is ApprovalPreview.
	ApprovalElicit = "elicit"
)

// ApprovalModes are the approval modes, the default first.
var ApprovalModes = []string{ApprovalPreview, ApprovalAuto, ApprovalElicit}

// ServerConfig is one language server of the table.
type ServerConfig struct {
	Command             string            `json:"command"`
	Args                []string          `json:"args"`
	Env                 map[string]string `json:"env"`
	ExtensionToLanguage map[string]string `json:"extensionToLanguage"`
	// FileNameToLanguage maps whole base names (Dockerfile,
	// CMakeLists.txt) to language ids.
	FileNameToLanguage    map[string]string `json:"fileNameToLanguage"`
	InitializationOptions RawJSON           `json:"initializationOptions"`
	Configuration         RawJSON           `json:"configuration"`
	MaxMessageBytes       int64             `json:"maxMessageBytes"`
	MaxStderrBytes        int64             `json:"maxStderrBytes"`
	MaxDocumentBytes      int64             `json:"maxDocumentBytes"`
	ShutdownTimeoutMs     int64             `json:"shutdownTimeoutMs"`
	KillGraceMs           int64             `json:"killGraceMs"`
	// SettleMs, when set, replaces the readiness policy's settle time for
	// this server (see readiness.go); nil keeps the policy's.
	SettleMs *int64 `json:"settleMs"`
	// RootMarkers are file names (go.mod, package.json, …) that mark a
	// project root for this server; empty means the workspace root is the
	// only root. Names only, never paths: a marker is looked up in a
	// directory, so '/' has no meaning in it.
	RootMarkers []string `json:"rootMarkers"`
	// MaxOpenDocuments bounds how many documents a long-lived server is
	// kept holding open at once.
	MaxOpenDocuments int64 `json:"maxOpenDocuments"`
	// IdleTimeoutMs is how long a long-lived server may sit unused before
	// it is shut down.
	IdleTimeoutMs int64 `json:"idleTimeoutMs"`
	// PassEnv names host variables passed to the server beyond the
	// allowlist (its environment is otherwise an allowlist of what
	// servers need; see the host's ServerEnv).
	PassEnv []string `json:"passEnv"`
	// Optional marks a server a table can do without: a host that cannot
	// find its command skips it with a warning (and answers its extensions
	// with LSP_UNAVAILABLE naming the missing server) instead of refusing
	// the whole table. The presets mark theirs, so one printed preset file
	// works on a machine with only some servers installed.
	Optional bool `json:"optional"`
	// Known is the id of the server table's entry this server was
	// recognized as by its command (servertable.go), "" for a server the
	// table does not know. A known server's table defaults are beneath
	// the config's own: initializationOptions and configuration merged
	// (the config's keys win), args and rootMarkers when the config gives
	// none.
	Known string `json:"known"`
}

// LanguageOf is the language id of a file the server serves, by its whole
// base name first, then its final extension, refined by the path patterns
// of the server's table entry (languagepattern.go); ok is false for a file
// it does not serve.
func (s ServerConfig) LanguageOf(filePath string) (languageID string, ok bool) {
	lang, found := s.FileNameToLanguage[BaseName(filePath)]
	if !found {
		lang, found = s.ExtensionToLanguage[FinalExtension(filePath)]
	}
	if !found {
		return "", false
	}
	return refineLanguage(s.Known, filePath, lang), true
}

// Provider is the server's registration: its id and the files it serves.
func (s ServerConfig) Provider(id string) ProviderSpec {
	return ProviderSpec{ID: id, ExtensionToLanguage: s.ExtensionToLanguage, FileNameToLanguage: s.FileNameToLanguage}
}

func (c Config) appendJSON(b []byte) []byte {
	b = append(b, `{"servers":{`...)
	for i, id := range sortedKeys(c.Servers) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, id)
		b = append(b, ':')
		b = c.Servers[id].appendJSON(b)
	}
	b = append(b, `},"timeoutMs":`...)
	b = appendInt(b, c.TimeoutMs)
	b = append(b, `,"maxRequestBytes":`...)
	b = appendInt(b, c.MaxRequestBytes)
	b = append(b, `,"approval":`...)
	b = appendString(b, c.Approval)
	return append(b, '}')
}

func (s ServerConfig) appendJSON(b []byte) []byte {
	b = append(b, `{"command":`...)
	b = appendString(b, s.Command)
	b = append(b, `,"args":`...)
	b = appendStrings(b, s.Args)
	b = append(b, `,"env":`...)
	b = appendStringMap(b, s.Env)
	b = append(b, `,"extensionToLanguage":`...)
	b = appendStringMap(b, s.ExtensionToLanguage)
	b = append(b, `,"fileNameToLanguage":`...)
	b = appendStringMap(b, s.FileNameToLanguage)
	b = append(b, `,"initializationOptions":`...)
	b = s.InitializationOptions.appendJSON(b)
	b = append(b, `,"configuration":`...)
	b = s.Configuration.appendJSON(b)
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"maxMessageBytes", s.MaxMessageBytes},
		{"maxStderrBytes", s.MaxStderrBytes},
		{"maxDocumentBytes", s.MaxDocumentBytes},
		{"shutdownTimeoutMs", s.ShutdownTimeoutMs},
		{"killGraceMs", s.KillGraceMs},
	} {
		b = append(b, ',', '"')
		b = append(b, f.name...)
		b = append(b, '"', ':')
		b = appendInt(b, f.v)
	}
	b = append(b, `,"settleMs":`...)
	if s.SettleMs == nil {
		b = append(b, "null"...)
	} else {
		b = appendInt(b, *s.SettleMs)
	}
	b = append(b, `,"rootMarkers":`...)
	b = appendStrings(b, s.RootMarkers)
	b = append(b, `,"maxOpenDocuments":`...)
	b = appendInt(b, s.MaxOpenDocuments)
	b = append(b, `,"idleTimeoutMs":`...)
	b = appendInt(b, s.IdleTimeoutMs)
	b = append(b, `,"passEnv":`...)
	b = appendStrings(b, s.PassEnv)
	b = append(b, `,"optional":`...)
	b = strconv.AppendBool(b, s.Optional)
	b = append(b, `,"known":`...)
	b = appendString(b, s.Known)
	return append(b, '}')
}

var (
	configFields = []string{"servers", "presets", "timeoutMs", "maxRequestBytes", "approval"}
	serverFields = []string{"command", "args", "env", "extensionToLanguage", "fileNameToLanguage", "initializationOptions", "configuration",
		"maxMessageBytes", "maxStderrBytes", "maxDocumentBytes", "shutdownTimeoutMs", "killGraceMs", "settleMs",
		"rootMarkers", "maxOpenDocuments", "idleTimeoutMs", "passEnv", "optional",
		// known is computed (the entry of the server table the command
		// names); accepted so a validated config validates again.
		"known"}
)

// ValidateConfig checks a configuration and fills in every default. All
// problems are reported at once (up to maxConfigProblems), each naming the
// server and field; the error's Problems carry each one's path, so a host
// that read the config from a file can name the line (see ConfigProblem).
func ValidateConfig(v gjson.Result) (Config, *Error) {
	var problems configProblems
	add := problems.add
	fail := func() (Config, *Error) { return Config{}, problems.err() }
	if !v.IsObject() {
		add("", `the config must be an object like {"servers": {"gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}}, got %s`, describe(v))
		return fail()
	}
	checkFields(v, "", configFields, add)
	cfg := Config{Servers: map[string]ServerConfig{}, TimeoutMs: DefaultTimeoutMs, MaxRequestBytes: DefaultMaxRequestBytes, Approval: ApprovalPreview}
	if a := get(v, "approval"); a.Exists() {
		if a.Type != gjson.String || !slices.Contains(ApprovalModes, a.Str) {
			add("approval", `approval must be "preview" (the default: a change is answered with its diff and a previewId, and applied when the call comes back with it), "auto" (applied at once) or "elicit" (lspseam mcp asks the user through the client), got %s`, describe(a))
		}
		cfg.Approval = a.Str
	}
	if m := get(v, "maxRequestBytes"); m.Exists() {
		n, ok := integer(m, 1, maxSafeInteger)
		if !ok {
			add("maxRequestBytes", "maxRequestBytes must be a positive integer of bytes at most %d, got %s", int64(maxSafeInteger), describe(m))
		}
		cfg.MaxRequestBytes = n
	}
	if t := get(v, "timeoutMs"); t.Exists() {
		n, ok := integer(t, 1, maxUint31)
		if !ok {
			add("timeoutMs", "timeoutMs must be a positive integer of milliseconds at most %d, got %s", maxUint31, describe(t))
		}
		cfg.TimeoutMs = n
	}
	withPresets := false
	if p := get(v, "presets"); p.Exists() {
		if !p.IsBool() {
			add("presets", "presets must be true (the config's servers are added to the built-in presets, replacing a preset of the same id and taking over the files it claims) or false (the default: only the config's servers), got %s", describe(p))
		}
		withPresets = p.Bool()
	}
	servers := get(v, "servers")
	switch {
	case withPresets && !servers.Exists():
	case !servers.IsObject():
		add("servers", `servers must be an object mapping a provider id to a server, e.g. {"gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}; got %s`, describe(servers))
	default:
		if _, dup, ok := objectKeys(servers); ok {
			add("servers", "servers has the id %s twice", quoteID(dup))
		}
		servers.ForEach(func(k, sv gjson.Result) bool {
			s, ok := validateServer(k.Str, sv, add)
			if ok {
				cfg.Servers[k.Str] = s
			}
			return true
		})
		if len(problems.list) == 0 && len(cfg.Servers) == 0 && !withPresets {
			add("servers", "servers must configure at least one language server")
		}
	}
	if withPresets && len(problems.list) == 0 {
		addPresets(cfg.Servers)
	}
	if len(problems.list) == 0 {
		specs := make([]ProviderSpec, 0, len(cfg.Servers))
		for _, id := range sortedKeys(cfg.Servers) {
			specs = append(specs, cfg.Servers[id].Provider(id))
		}
		if err := CheckConflicts(specs); err != nil {
			add("servers", "%s", err.Message)
		}
	}
	if len(problems.list) > 0 {
		return fail()
	}
	return cfg, nil
}

func validateServer(id string, v gjson.Result, add func(path, format string, args ...any)) (ServerConfig, bool) {
	where := "servers." + id
	if strings.TrimSpace(id) == "" {
		add("servers", "a server id must be a non-empty string")
		return ServerConfig{}, false
	}
	if !v.IsObject() {
		add(where, `%s must be an object with at least command and extensionToLanguage, got %s`, where, describe(v))
		return ServerConfig{}, false
	}
	before := 0
	count := func(path, format string, args ...any) { before++; add(path, format, args...) }
	checkFields(v, where, serverFields, count)
	s := ServerConfig{
		Args:              []string{},
		Env:               map[string]string{},
		MaxMessageBytes:   DefaultMaxMessageBytes,
		MaxStderrBytes:    DefaultMaxStderrBytes,
		MaxDocumentBytes:  DefaultMaxDocumentBytes,
		ShutdownTimeoutMs: DefaultShutdownTimeoutMs,
		KillGraceMs:       DefaultKillGraceMs,
		RootMarkers:       []string{},
		MaxOpenDocuments:  DefaultMaxOpenDocuments,
		IdleTimeoutMs:     DefaultIdleTimeoutMs,
	}
	switch cmd := get(v, "command"); {
	case cmd.Type != gjson.String || strings.TrimSpace(cmd.Str) == "":
		count(where+".command", "%s.command must be a non-empty string (an executable name on PATH or an absolute path; no shell is used), got %s", where, describe(cmd))
	case strings.IndexByte(cmd.Str, 0) >= 0:
		count(where+".command", "%s.command must not contain NUL", where)
	default:
		s.Command = cmd.Str
	}
	if args := get(v, "args"); args.Exists() {
		if !args.IsArray() {
			count(where+".args", "%s.args must be an array of strings, got %s", where, describe(args))
		} else {
			i := 0
			args.ForEach(func(_, a gjson.Result) bool {
				if a.Type != gjson.String || strings.IndexByte(a.Str, 0) >= 0 {
					count(fmt.Sprintf("%s.args[%d]", where, i), "%s.args[%d] must be a string without NUL, got %s", where, i, describe(a))
				} else {
					s.Args = append(s.Args, a.Str)
				}
				i++
				return true
			})
		}
	}
	if env := get(v, "env"); env.Exists() {
		m, at, err := decodeStringMapAt(env, where+".env", CodeConfigInvalid)
		if err != nil {
			count(at, "%s", err.Message)
		}
		for _, name := range sortedKeys(m) {
			if name == "" || strings.ContainsAny(name, "=\x00") || strings.IndexByte(m[name], 0) >= 0 {
				count(where+".env["+strconv.Quote(name)+"]", "%s.env has an invalid variable %s (names must be non-empty without '=' or NUL)", where, strconv.Quote(clip(name, 80)))
				continue
			}
			s.Env[name] = m[name]
		}
	}
	exts, names := get(v, "extensionToLanguage"), get(v, "fileNameToLanguage")
	var m, byName map[string]string
	decoded := true
	if exts.Exists() || !names.Exists() {
		var err *Error
		var at string
		if m, at, err = decodeStringMapAt(exts, where+".extensionToLanguage", CodeConfigInvalid); err != nil {
			count(at, `%s (for example {".go": "go"})`, err.Message)
			decoded = false
		}
	}
	if names.Exists() {
		var err *Error
		var at string
		if byName, at, err = decodeStringMapAt(names, where+".fileNameToLanguage", CodeConfigInvalid); err != nil {
			count(at, `%s (for example {"Dockerfile": "dockerfile"})`, err.Message)
			decoded = false
		}
	}
	if decoded {
		if spec, perr := NormalizeProvider(ProviderSpec{ID: id, ExtensionToLanguage: m, FileNameToLanguage: byName}); perr != nil {
			count(where+".extensionToLanguage", "%s.extensionToLanguage: %s", where, strings.TrimPrefix(perr.Message, "invalid provider "+quoteID(id)+": "))
		} else {
			s.ExtensionToLanguage = spec.ExtensionToLanguage
			s.FileNameToLanguage = spec.FileNameToLanguage
		}
	}
	if s.FileNameToLanguage == nil {
		s.FileNameToLanguage = map[string]string{}
	}
	for _, raw := range []struct {
		name string
		dst  *RawJSON
	}{{"initializationOptions", &s.InitializationOptions}, {"configuration", &s.Configuration}} {
		if f := get(v, raw.name); f.Exists() {
			*raw.dst = RawJSON(f.Raw)
		}
	}
	for _, lim := range []struct {
		name string
		dst  *int64
		max  int64
		unit string
	}{
		{"maxMessageBytes", &s.MaxMessageBytes, maxSafeInteger, "bytes"},
		{"maxStderrBytes", &s.MaxStderrBytes, maxSafeInteger, "bytes"},
		{"maxDocumentBytes", &s.MaxDocumentBytes, maxSafeInteger, "bytes"},
		{"shutdownTimeoutMs", &s.ShutdownTimeoutMs, maxUint31, "milliseconds"},
		{"killGraceMs", &s.KillGraceMs, maxUint31, "milliseconds"},
		{"maxOpenDocuments", &s.MaxOpenDocuments, maxMaxOpenDocuments, "documents"},
		{"idleTimeoutMs", &s.IdleTimeoutMs, maxUint31, "milliseconds"},
	} {
		f := get(v, lim.name)
		if !f.Exists() {
			continue
		}
		n, ok := integer(f, 1, lim.max)
		if !ok {
			count(where+"."+lim.name, "%s.%s must be a positive integer of %s at most %d, got %s", where, lim.name, lim.unit, lim.max, describe(f))
			continue
		}
		*lim.dst = n
	}
	if f := get(v, "settleMs"); f.Exists() && f.Type != gjson.Null {
		n, ok := integer(f, 0, maxUint31)
		if !ok {
			count(where+".settleMs", "%s.settleMs must be a non-negative integer of milliseconds at most %d, got %s", where, maxUint31, describe(f))
		} else {
			s.SettleMs = &n
		}
	}
	if markers := get(v, "rootMarkers"); markers.Exists() {
		s.RootMarkers = validateRootMarkers(markers, where+".rootMarkers", count)
	}
	s.PassEnv = []string{}
	if pass := get(v, "passEnv"); pass.Exists() {
		if !pass.IsArray() || len(pass.Array()) > 64 {
			count(where+".passEnv", `%s.passEnv must be an array of at most 64 variable names such as ["GITHUB_ENTERPRISE_URL"], got %s`, where, describe(pass))
		} else {
			i := -1
			pass.ForEach(func(_, n gjson.Result) bool {
				i++
				if n.Type != gjson.String || n.Str == "" || strings.ContainsAny(n.Str, "=\x00") {
					count(fmt.Sprintf("%s.passEnv[%d]", where, i), "%s.passEnv[%d] must be a variable name (non-empty, without '=' or NUL), got %s", where, i, describe(n))
				} else {
					s.PassEnv = append(s.PassEnv, n.Str)
				}
				return true
			})
		}
	}
	if opt := get(v, "optional"); opt.Exists() {
		if !opt.IsBool() {
			count(where+".optional", "%s.optional must be true or false (true: skip the server with a warning when its command is not installed), got %s", where, describe(opt))
		} else {
			s.Optional = opt.Bool()
		}
	}
	if known, ok := KnownServer("", s.Command); ok && before == 0 {
		s.applyKnownDefaults(known, get(v, "args").Exists(), get(v, "rootMarkers").Exists())
	}
	return s, before == 0
}

// validateRootMarkers checks a list of marker file names.
func validateRootMarkers(v gjson.Result, where string, add func(path, format string, args ...any)) []string {
	out := []string{}
	if !v.IsArray() {
		add(where, `%s must be an array of file names such as ["go.mod", "go.work"], got %s`, where, describe(v))
		return out
	}
	if n := len(v.Array()); n > maxRootMarkers {
		add(where, "%s has %d names; at most %d are allowed", where, n, maxRootMarkers)
		return out
	}
	seen := map[string]bool{}
	i := -1
	v.ForEach(func(_, m gjson.Result) bool {
		i++
		switch {
		case m.Type != gjson.String || m.Str == "" || m.Str == "." || m.Str == ".." || strings.ContainsAny(m.Str, "/\x00"):
			add(fmt.Sprintf("%s[%d]", where, i), "%s[%d] must be a file name (non-empty, without '/' or NUL, not . or ..), got %s", where, i, describe(m))
		case seen[m.Str]:
			add(fmt.Sprintf("%s[%d]", where, i), "%s has %s twice", where, strconv.Quote(clip(m.Str, 80)))
		default:
			seen[m.Str] = true
			out = append(out, m.Str)
		}
		return true
	})
	return out
}

// checkFields reports unknown and repeated fields of the object at where
// ("" for the config itself), suggesting the known one the caller
// probably meant. Each problem's path is the offending field's own.
func checkFields(v gjson.Result, where string, known []string, add func(path, format string, args ...any)) {
	subject, prefix := where, where+"."
	if where == "" {
		subject, prefix = "the config", ""
	}
	seen := map[string]bool{}
	v.ForEach(func(k, _ gjson.Result) bool {
		name := k.Str
		if seen[name] {
			add(prefix+name, "%s has the field %s twice", subject, strconv.Quote(clip(name, 80)))
		}
		seen[name] = true
		for _, f := range known {
			if f == name {
				return true
			}
		}
		msg := subject + " has an unknown field " + strconv.Quote(clip(name, 80))
		if guess := closest(name, known); guess != "" {
			msg += " (did you mean " + strconv.Quote(guess) + "?)"
		} else {
			sorted := append([]string(nil), known...)
			sort.Strings(sorted)
			msg += " (known fields: " + strings.Join(sorted, ", ") + ")"
		}
		add(prefix+name, "%s", msg)
		return true
	})
}

// closest returns the candidate within edit distance 2 of name (case
// ignored), or "".
func closest(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
