package core

import (
	_ "embed" // the server table
	"net/netip"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// The server table: every language server lspseam knows, as data
// (servers.json), shipped in the module. Hosts build their presets, their
// install advice, `lspseam doctor` and `lspseam servers install` from it;
// the core uses it to give a server its known defaults and readiness
// policy.
//
// A server is recognized by what it is, not by what a config calls it:
// before it starts by its command's base name (so a hand-written config
// naming `typescript-language-server` gets the same initialization options
// a preset sends), after initialize by serverInfo.name. A server the table
// does not know gets the conservative policy (readiness.go).

//go:embed servers.json
var serverTableJSON []byte

// ServerEntry is one server of the table.
type ServerEntry struct {
	// ID is the provider id the presets give the server.
	ID string `json:"id"`
	// Name is how its project names it.
	Name     string `json:"name"`
	Homepage string `json:"homepage"`
	// Command and Args run it (a bare name is looked up on PATH).
	Command string   `json:"command"`
	Args    []string `json:"args"`
	// ServerInfoNames are the serverInfo.name values (lowercase) it
	// answers initialize with.
	ServerInfoNames []string         `json:"serverInfoNames"`
	Languages       []ServerLanguage `json:"languages"`
	RootMarkers     []string         `json:"rootMarkers"`
	// InitializationOptions and Configuration are its defaults: a config
	// naming the server gets them beneath its own (its own keys win). The
	// host replaces ${commandNodeModules} in a string of
	// InitializationOptions with the node_modules directory the server's
	// executable was installed into ("" when none), where a plugin
	// installed beside it is found.
	InitializationOptions RawJSON `json:"initializationOptions"`
	Configuration         RawJSON `json:"configuration"`
	// VersionArgs, when the server has a version flag, are the arguments
	// that print its version on the first line of stdout and exit
	// (`lspseam doctor`); without them doctor asks initialize for
	// serverInfo.version.
	VersionArgs []string `json:"versionArgs,omitempty"`
	// Install says how to get it.
	Install InstallSpec `json:"install"`
	// Preset: the built-in table (used without a config) includes it.
	Preset bool `json:"preset"`
	// Tested: `make servers` installs it and the e2e suite runs it on a
	// fixture; false means listed only.
	Tested bool `json:"tested"`
	// Behaviour is what lspseam knows of how it loads and takes changes.
	Behaviour ServerBehaviour `json:"behaviour"`
	Notes     string          `json:"notes"`
}

// ServerLanguage is one language a server serves and the files that are
// in it.
type ServerLanguage struct {
	// Name is the language's name for people ("C++").
	Name string `json:"name"`
	// LanguageID is the LSP language id documents are opened with.
	LanguageID string `json:"languageId"`
	// Extensions are lowercase with a leading dot.
	Extensions []string `json:"extensions"`
	// FileNames are whole base names (Dockerfile, CMakeLists.txt), matched
	// exactly.
	FileNames []string `json:"fileNames"`
	// PathPatterns are globs (glob.go) of files the server already serves
	// under another of its languages that are opened in this one instead:
	// tsconfig.json is JSON with comments, not JSON. They choose only the
	// language id a file is opened with, never which server serves it; a
	// pattern without '/' matches the base name, one with '/' the whole
	// path.
	PathPatterns []string `json:"pathPatterns"`
}

// InstallSpec says how a server is installed: through one ecosystem's own
// client, pinned; as a vendor's release file checked against its SHA-256;
// or by hand (Manual) where neither exists. `lspseam servers install`
// tries the kinds in this order and uses the first whose client is
// present.
type InstallSpec struct {
	NPM      *NPMInstall       `json:"npm,omitempty"`
	Go       *GoInstall        `json:"go,omitempty"`
	PyPI     *PyPIInstall      `json:"pypi,omitempty"`
	Download []DownloadInstall `json:"download,omitempty"`
	Debian   *DebianInstall    `json:"debian,omitempty"`
	// Manual is what to do by hand.
	Manual string `json:"manual,omitempty"`
}

// Installable reports whether lspseam can install the entry's server
// itself (any kind but Manual).
func (i InstallSpec) Installable() bool {
	return i.NPM != nil || i.Go != nil || i.PyPI != nil || len(i.Download) > 0 || i.Debian != nil
}

// NPMInstall installs Package@Version (and With, other package@version
// specs it needs beside it) with npm.
type NPMInstall struct {
	Package string   `json:"package"`
	Version string   `json:"version"`
	With    []string `json:"with,omitempty"`
}

// GoInstall is `go install Module@Version`.
type GoInstall struct {
	Module  string `json:"module"`
	Version string `json:"version"`
}

// PyPIInstall is Package==Version installed with pip into a private
// virtual environment.
type PyPIInstall struct {
	Package string `json:"package"`
	Version string `json:"version"`
}

// DownloadInstall is a vendor's release file for one platform: fetched
// over HTTPS, its SHA-256 checked before anything in it is unpacked.
type DownloadInstall struct {
	// Platform is GOOS/GOARCH ("linux/amd64") the file runs on.
	Platform string `json:"platform"`
	URL      string `json:"url"`
	// SHA256 is the file's digest, lowercase hex.
	SHA256 string `json:"sha256"`
	// Archive is "tar.gz", "zip", or "" for a bare executable.
	Archive string `json:"archive,omitempty"`
	// Binary is the executable's slash-separated path inside the archive
	// (for a bare executable, the name it is saved as; default the
	// entry's command).
	Binary string `json:"binary,omitempty"`
}

// Download archive kinds (DownloadInstall.Archive).
const (
	ArchiveTarGz = "tar.gz"
	ArchiveZip   = "zip"
	ArchiveNone  = ""
)

// DebianInstall is a Debian package (apt-get, as root).
type DebianInstall struct {
	Package string `json:"package"`
}

// File-event behaviours (ServerBehaviour.FileEvents).
const (
	// FileEventsApplies: the server applies workspace/didChangeWatchedFiles
	// before its next request (or, with ChangeSettleMs, signals when it
	// has).
	FileEventsApplies = "applies"
	// FileEventsIgnores: the server does not act on file events for
	// sources; a change to a file it has not opened means a fresh process.
	FileEventsIgnores = "ignores"
	// FileEventsRegistered: trusted only for the files the server's own
	// watcher registrations cover; a change to another file of its
	// languages means a fresh process. The default for servers whose
	// behaviour was not measured.
	FileEventsRegistered = "registered"
)

// DiagnosticsNone (ServerBehaviour.Diagnostics): the server reports no
// diagnostics at all, neither published nor pulled, so code_diagnostics
// answers LSP_UNSUPPORTED_OPERATION instead of waiting for a report that
// never comes and calling the empty list stale.
const DiagnosticsNone = "none"

// ServerBehaviour is the measured behaviour of a server; an empty one is
// the conservative default.
type ServerBehaviour struct {
	// FileEvents is FileEventsApplies, FileEventsIgnores or
	// FileEventsRegistered ("" means FileEventsRegistered).
	FileEvents string `json:"fileEvents"`
	// SettleMs, ReadyLog, ExpectSignal, ChangeSettleMs, ChangeSettleEdits,
	// OpenNewDirectories and DiagnosticsQuietMs are the readiness policy's
	// (Readiness); a nil SettleMs means the default settle.
	SettleMs           *int64 `json:"settleMs"`
	ReadyLog           string `json:"readyLog"`
	ExpectSignal       bool   `json:"expectSignal"`
	ChangeSettleMs     int64  `json:"changeSettleMs"`
	ChangeSettleEdits  bool   `json:"changeSettleEdits"`
	OpenNewDirectories bool   `json:"openNewDirectories"`
	DiagnosticsQuietMs int64  `json:"diagnosticsQuietMs"`
	// Diagnostics is "" (the server reports diagnostics, pushed or
	// pulled) or DiagnosticsNone.
	Diagnostics string `json:"diagnostics"`
	// WatchExtensions are extensions of files of other languages the
	// server reads from disk and caches (yaml-language-server's JSON
	// schemas): with no watcher registrations of its own, their changes
	// reach it (or restart it) as its own files' do.
	WatchExtensions []string `json:"watchExtensions"`
	// SymbolSearch and SymbolCap are the policy's for workspace/symbol
	// (Readiness.SymbolSearch, Readiness.SymbolCap).
	SymbolSearch string `json:"symbolSearch"`
	SymbolCap    int64  `json:"symbolCap"`
	// DiagnosticsCommand is Readiness.DiagnosticsCommand, used when the
	// server offers that command.
	DiagnosticsCommand string `json:"diagnosticsCommand"`
	// SearchNeeds and SearchNeedsHint are Readiness's.
	SearchNeeds     []string `json:"searchNeeds"`
	SearchNeedsHint string   `json:"searchNeedsHint"`
	// SearchesOneFile is Readiness.SearchesOneFile.
	SearchesOneFile []string `json:"searchesOneFile"`
	// ModuleSearch is Readiness.ModuleSearch.
	ModuleSearch string `json:"moduleSearch"`
	// ProjectInclude is Readiness.ProjectInclude.
	ProjectInclude string `json:"projectInclude"`
	// ConcurrentRequests is Readiness.ConcurrentRequests.
	ConcurrentRequests bool `json:"concurrentRequests"`
	// HeadersFromDisk is Readiness.HeadersFromDisk.
	HeadersFromDisk []string `json:"headersFromDisk"`
	// ReportsUnopened is Readiness.ReportsUnopened.
	ReportsUnopened bool `json:"reportsUnopened"`
	// SignalNeeds, CleanConfirmedBy and ReportsOnlySynced are Readiness's.
	SignalNeeds       []string `json:"signalNeeds"`
	CleanConfirmedBy  string   `json:"cleanConfirmedBy"`
	ReportsOnlySynced bool     `json:"reportsOnlySynced"`
	// ReportsSettleWithProgress is Readiness.ReportsSettleWithProgress.
	ReportsSettleWithProgress bool `json:"reportsSettleWithProgress"`
	// AnalyzersPausedBy are the diagnostic sources of the server's
	// compile errors (gopls: "compiler", "syntax") when its findings of
	// every other source come from analyzers it runs only on a package
	// (a directory's files) without such an error: the diagnostics delta
	// then calls a finding that vanished with the errors' coming withheld,
	// not resolved, and one that came with their going reappeared, not
	// introduced (core/diaganalysis.go).
	AnalyzersPausedBy []string `json:"analyzersPausedBy"`
	// ParseErrorSources are the diagnostic sources of the server's parse
	// errors (gopls: "syntax") and HiddenWhileUnparsed those of the
	// problems it does not report for a file while that file has one
	// (gopls: "compiler", its type errors): the diagnostics delta then
	// calls such a problem that vanished with a parse error's coming
	// unchecked, not resolved, and one that came with its going
	// rechecked, not introduced (core/diagparse.go). Both or neither.
	ParseErrorSources   []string `json:"parseErrorSources"`
	HiddenWhileUnparsed []string `json:"hiddenWhileUnparsed"`
	// FailureLog is Readiness.FailureLog.
	FailureLog string `json:"failureLog"`
}

// ServerTable is the parsed table.
type ServerTable struct {
	Servers []ServerEntry `json:"servers"`
}

var (
	serverTableOnce sync.Once
	serverTable     ServerTable
)

// Servers returns the server table, parsed once. Callers must not modify
// it.
func Servers() ServerTable {
	serverTableOnce.Do(func() { serverTable = parseServerTable(gjson.ParseBytes(serverTableJSON)) })
	return serverTable
}

// ServerTableJSON is the table as shipped (the ABI's serverTable method).
func ServerTableJSON() []byte { return serverTableJSON }

// KnownServer finds the entry for a server by its serverInfo.name (any
// case) or, when that is empty or unknown, by its command's base name.
func KnownServer(serverInfoName, command string) (ServerEntry, bool) {
	name := strings.ToLower(strings.TrimSpace(serverInfoName))
	t := Servers()
	if name != "" {
		for _, e := range t.Servers {
			for _, n := range e.ServerInfoNames {
				if n == name {
					return e, true
				}
			}
		}
	}
	base := commandBase(command)
	if base == "" {
		return ServerEntry{}, false
	}
	for _, e := range t.Servers {
		if commandBase(e.Command) == base {
			return e, true
		}
	}
	return ServerEntry{}, false
}

// commandBase is a command's base name, lowercase, without a Windows
// executable suffix: what identifies the program whatever its directory.
func commandBase(command string) string {
	base := strings.ToLower(path.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, suffix := range []string{".exe", ".cmd", ".bat"} {
		base = strings.TrimSuffix(base, suffix)
	}
	if base == "." || base == "/" {
		return ""
	}
	return base
}

// ExtensionToLanguage maps each of the entry's extensions to its language
// id.
func (e ServerEntry) ExtensionToLanguage() map[string]string {
	m := map[string]string{}
	for _, l := range e.Languages {
		for _, ext := range l.Extensions {
			m[ext] = l.LanguageID
		}
	}
	return m
}

// FileNameToLanguage maps each of the entry's whole file names to its
// language id.
func (e ServerEntry) FileNameToLanguage() map[string]string {
	m := map[string]string{}
	for _, l := range e.Languages {
		for _, name := range l.FileNames {
			m[name] = l.LanguageID
		}
	}
	return m
}

func parseServerTable(v gjson.Result) ServerTable {
	var t ServerTable
	for _, s := range get(v, "servers").Array() {
		e := ServerEntry{
			ID:              get(s, "id").Str,
			Name:            get(s, "name").Str,
			Homepage:        get(s, "homepage").Str,
			Command:         get(s, "command").Str,
			Args:            tableStrings(get(s, "args")),
			ServerInfoNames: tableStrings(get(s, "serverInfoNames")),
			RootMarkers:     tableStrings(get(s, "rootMarkers")),
			Preset:          get(s, "preset").Bool(),
			Tested:          get(s, "tested").Bool(),
			Notes:           get(s, "notes").Str,
			VersionArgs:     tableStrings(get(s, "versionArgs")),
		}
		for i, n := range e.ServerInfoNames {
			e.ServerInfoNames[i] = strings.ToLower(n)
		}
		if o := get(s, "initializationOptions"); o.Exists() {
			e.InitializationOptions = RawJSON(o.Raw)
		}
		if o := get(s, "configuration"); o.Exists() {
			e.Configuration = RawJSON(o.Raw)
		}
		for _, l := range get(s, "languages").Array() {
			e.Languages = append(e.Languages, ServerLanguage{
				Name:         get(l, "name").Str,
				LanguageID:   get(l, "languageId").Str,
				Extensions:   tableStrings(get(l, "extensions")),
				FileNames:    tableStrings(get(l, "fileNames")),
				PathPatterns: tableStrings(get(l, "pathPatterns")),
			})
		}
		in := get(s, "install")
		if n := get(in, "npm"); n.Exists() {
			e.Install.NPM = &NPMInstall{Package: get(n, "package").Str, Version: get(n, "version").Str, With: tableStrings(get(n, "with"))}
		}
		if g := get(in, "go"); g.Exists() {
			e.Install.Go = &GoInstall{Module: get(g, "module").Str, Version: get(g, "version").Str}
		}
		if p := get(in, "pypi"); p.Exists() {
			e.Install.PyPI = &PyPIInstall{Package: get(p, "package").Str, Version: get(p, "version").Str}
		}
		for _, d := range get(in, "download").Array() {
			e.Install.Download = append(e.Install.Download, DownloadInstall{
				Platform: get(d, "platform").Str,
				URL:      get(d, "url").Str,
				SHA256:   strings.ToLower(get(d, "sha256").Str),
				Archive:  get(d, "archive").Str,
				Binary:   get(d, "binary").Str,
			})
		}
		if d := get(in, "debian"); d.Exists() {
			e.Install.Debian = &DebianInstall{Package: get(d, "package").Str}
		}
		e.Install.Manual = get(in, "manual").Str
		b := get(s, "behaviour")
		e.Behaviour = ServerBehaviour{
			FileEvents:                get(b, "fileEvents").Str,
			ReadyLog:                  get(b, "readyLog").Str,
			ExpectSignal:              get(b, "expectSignal").Bool(),
			ChangeSettleMs:            get(b, "changeSettleMs").Int(),
			ChangeSettleEdits:         get(b, "changeSettleEdits").Bool(),
			OpenNewDirectories:        get(b, "openNewDirectories").Bool(),
			DiagnosticsQuietMs:        get(b, "diagnosticsQuietMs").Int(),
			Diagnostics:               get(b, "diagnostics").Str,
			WatchExtensions:           tableStrings(get(b, "watchExtensions")),
			SymbolSearch:              get(b, "symbolSearch").Str,
			SymbolCap:                 get(b, "symbolCap").Int(),
			DiagnosticsCommand:        get(b, "diagnosticsCommand").Str,
			SearchNeeds:               tableStrings(get(b, "searchNeeds")),
			SearchNeedsHint:           get(b, "searchNeedsHint").Str,
			SearchesOneFile:           tableStrings(get(b, "searchesOneFile")),
			ModuleSearch:              get(b, "moduleSearch").Str,
			ProjectInclude:            get(b, "projectInclude").Str,
			ConcurrentRequests:        get(b, "concurrentRequests").Bool(),
			HeadersFromDisk:           tableStrings(get(b, "headersFromDisk")),
			ReportsUnopened:           get(b, "reportsUnopened").Bool(),
			SignalNeeds:               tableStrings(get(b, "signalNeeds")),
			CleanConfirmedBy:          get(b, "cleanConfirmedBy").Str,
			ReportsOnlySynced:         get(b, "reportsOnlySynced").Bool(),
			ReportsSettleWithProgress: get(b, "reportsSettleWithProgress").Bool(),
			AnalyzersPausedBy:         tableStrings(get(b, "analyzersPausedBy")),
			ParseErrorSources:         tableStrings(get(b, "parseErrorSources")),
			HiddenWhileUnparsed:       tableStrings(get(b, "hiddenWhileUnparsed")),
			FailureLog:                get(b, "failureLog").Str,
		}
		if ms := get(b, "settleMs"); ms.Exists() {
			n := ms.Int()
			e.Behaviour.SettleMs = &n
		}
		t.Servers = append(t.Servers, e)
	}
	return t
}

// tableStrings reads an array of strings (nil when absent).
func tableStrings(v gjson.Result) []string {
	var out []string
	for _, s := range v.Array() {
		out = append(out, s.Str)
	}
	return out
}

// InstallCommand is the one line that installs the entry's server by hand,
// for messages: the pinned package through its ecosystem's client, or the
// manual instructions.
func (e ServerEntry) InstallCommand() string {
	i := e.Install
	switch {
	case i.NPM != nil:
		specs := append([]string{i.NPM.Package + "@" + i.NPM.Version}, i.NPM.With...)
		return "npm install -g " + strings.Join(specs, " ")
	case i.Go != nil:
		return "go install " + i.Go.Module + "@" + i.Go.Version
	case i.PyPI != nil:
		return "pipx install " + i.PyPI.Package + "==" + i.PyPI.Version
	case len(i.Download) > 0:
		d := i.Download[0]
		return "download " + d.URL + " (SHA-256 " + d.SHA256 + "), unpack it and put " + e.Command + " on PATH"
	case i.Debian != nil:
		return "apt-get install " + i.Debian.Package
	}
	return i.Manual
}

// LanguageNames lists the names of the entry's languages.
func (e ServerEntry) LanguageNames() []string {
	names := make([]string, len(e.Languages))
	for i, l := range e.Languages {
		names[i] = l.Name
	}
	return names
}

// presetEntries are the entries of the built-in table, by id.
func presetEntries() []ServerEntry {
	var out []ServerEntry
	for _, e := range Servers().Servers {
		if e.Preset {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Problem says what is wrong with a download, or "": its platform must be
// GOOS/GOARCH, its URL HTTPS (HTTP only to a loopback address, for
// tests), its digest 64 lowercase hex digits, its archive a kind lspseam
// unpacks, and its binary a relative path that stays inside the archive.
func (d DownloadInstall) Problem() string {
	if os, arch, ok := strings.Cut(d.Platform, "/"); !ok || os == "" || arch == "" || strings.Contains(arch, "/") {
		return "platform must be GOOS/GOARCH (linux/amd64), got " + strconv.Quote(d.Platform)
	}
	scheme, rest, _ := strings.Cut(d.URL, "://")
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		return "url must not carry credentials"
	}
	hostname := host
	if strings.HasPrefix(hostname, "[") {
		hostname, _, _ = strings.Cut(hostname[1:], "]")
	} else if h, _, found := strings.Cut(hostname, ":"); found {
		hostname = h
	}
	switch {
	case hostname == "":
		return "url must be an absolute https:// URL, got " + strconv.Quote(d.URL)
	case scheme == "https":
	case scheme == "http" && isLoopback(hostname):
	default:
		return "url must be https:// (http:// only to a loopback address), got " + strconv.Quote(d.URL)
	}
	if len(d.SHA256) != 64 || strings.Trim(d.SHA256, "0123456789abcdef") != "" {
		return "sha256 must be 64 lowercase hex digits, got " + strconv.Quote(d.SHA256)
	}
	switch d.Archive {
	case ArchiveTarGz, ArchiveZip, ArchiveNone:
	default:
		return `archive must be "tar.gz", "zip" or "" (a bare executable), got ` + strconv.Quote(d.Archive)
	}
	if d.Archive != ArchiveNone && d.Binary == "" {
		return "binary must name the executable's path inside the archive"
	}
	if d.Binary != "" && !LocalPath(d.Binary) {
		return "binary must be a relative slash-separated path inside the archive, got " + strconv.Quote(d.Binary)
	}
	return ""
}

// isLoopback reports whether a URL's host name is a loopback address.
func isLoopback(hostname string) bool {
	if hostname == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(hostname)
	return err == nil && ip.IsLoopback()
}

// LocalPath reports whether p, a slash-separated path from an archive or a
// table, names something inside the directory it is unpacked into: not
// empty, not absolute, no backslash, NUL or drive letter, no "." or ".."
// element.
func LocalPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") || (len(p) >= 2 && p[1] == ':') {
		return false
	}
	for _, elem := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}
