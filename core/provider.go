package core

import (
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"
)

// Provider registration rules: how extensions are normalized, when two
// registrations conflict, and which registration serves a file. The
// registry itself (who holds what, disposers) lives in the hosts; these are
// the pure rules they all apply.

// ProviderSpec is a provider's identity and the extensions it serves.
// Extensions are normalized (lowercase, one leading dot); values are LSP
// language ids.
type ProviderSpec struct {
	ID                  string            `json:"id"`
	ExtensionToLanguage map[string]string `json:"extensionToLanguage"`
	// FileNameToLanguage maps whole base names (Dockerfile,
	// CMakeLists.txt), matched exactly, to language ids; a file name wins
	// over an extension.
	FileNameToLanguage map[string]string `json:"fileNameToLanguage,omitempty"`
}

func (p ProviderSpec) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, p.ID)
	b = append(b, `,"extensionToLanguage":`...)
	b = appendStringMap(b, p.ExtensionToLanguage)
	if len(p.FileNameToLanguage) > 0 {
		b = append(b, `,"fileNameToLanguage":`...)
		b = appendStringMap(b, p.FileNameToLanguage)
	}
	return append(b, '}')
}

// appendStringMap encodes a map with its keys sorted.
func appendStringMap(b []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

// Selection is the provider chosen for a file and the language id the
// document is opened with.
type Selection struct {
	ID         string `json:"id"`
	LanguageID string `json:"languageId"`
}

func (s Selection) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, s.ID)
	b = append(b, `,"languageId":`...)
	b = appendString(b, s.LanguageID)
	return append(b, '}')
}

// NormalizeExtension turns a configured extension key into its canonical
// form: lowercase with one leading dot ("TS" and ".TS" become ".ts"). It
// rejects keys that could never match a final extension (".d.ts": the final
// extension of a.d.ts is .ts).
func NormalizeExtension(key string) (string, string) {
	ext := strings.ToLower(key)
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	switch {
	case ext == ".":
		return "", "an extension must not be empty"
	case strings.ContainsAny(ext[1:], "."):
		return "", "extension " + strconv.Quote(key) + " has more than one dot; selection uses the final extension only (configure .ts for .d.ts files)"
	case strings.ContainsAny(ext, `/\`) || strings.IndexFunc(ext, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return "", "extension " + strconv.Quote(key) + " must not contain slashes, spaces or control characters"
	}
	return ext, ""
}

// FinalExtension is the lowercase final extension of a path's base name,
// with its dot: "src/Foo.TS" → ".ts", "a.d.ts" → ".ts". A base name whose
// only dot is its first character (".bashrc") or that ends in a dot has no
// extension, as in Node's path.extname.
func FinalExtension(filePath string) string {
	base := filePath
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || i == len(base)-1 {
		return ""
	}
	return strings.ToLower(base[i:])
}

// NormalizeProvider validates a registration and normalizes its extensions.
func NormalizeProvider(p ProviderSpec) (ProviderSpec, *Error) {
	var problems []string
	if strings.TrimSpace(p.ID) == "" {
		problems = append(problems, "id must be a non-empty string")
	} else if strings.IndexFunc(p.ID, unicode.IsControl) >= 0 {
		problems = append(problems, "id must not contain control characters")
	}
	if len(p.ExtensionToLanguage) == 0 && len(p.FileNameToLanguage) == 0 {
		problems = append(problems, "extensionToLanguage must map at least one extension to a language id, e.g. {\".ts\": \"typescript\"} (or fileNameToLanguage a file name, e.g. {\"Dockerfile\": \"dockerfile\"})")
	}
	out := ProviderSpec{ID: p.ID, ExtensionToLanguage: make(map[string]string, len(p.ExtensionToLanguage))}
	for _, name := range sortedKeys(p.FileNameToLanguage) {
		lang := p.FileNameToLanguage[name]
		switch {
		case strings.TrimSpace(name) == "" || strings.ContainsAny(name, "/\\\x00") || name == "." || name == "..":
			problems = append(problems, "file name "+strconv.Quote(clip(name, 80))+" must be a base name (no '/' or '\\'), e.g. \"Dockerfile\"")
		case strings.TrimSpace(lang) == "":
			problems = append(problems, "the language id for the file name "+strconv.Quote(clip(name, 80))+" must be a non-empty string")
		default:
			if out.FileNameToLanguage == nil {
				out.FileNameToLanguage = map[string]string{}
			}
			out.FileNameToLanguage[name] = lang
		}
	}
	origin := map[string]string{}
	keys := sortedKeys(p.ExtensionToLanguage)
	for _, key := range keys {
		lang := p.ExtensionToLanguage[key]
		ext, problem := NormalizeExtension(key)
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		if strings.TrimSpace(lang) == "" {
			problems = append(problems, "the language id for "+ext+" must be a non-empty string")
			continue
		}
		if prev, dup := origin[ext]; dup {
			problems = append(problems, "extensions "+strconv.Quote(prev)+" and "+strconv.Quote(key)+" both normalize to "+ext)
			continue
		}
		origin[ext] = key
		out.ExtensionToLanguage[ext] = lang
	}
	if len(problems) > 0 {
		return ProviderSpec{}, Errorf(CodeInvalidArgument, "invalid provider %s: %s", quoteID(p.ID), strings.Join(problems, "; "))
	}
	return out, nil
}

func quoteID(id string) string { return strconv.Quote(clip(id, 80)) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CheckConflicts reports the first pair of providers that share an id or an
// extension. Providers must already be normalized.
func CheckConflicts(providers []ProviderSpec) *Error {
	ids := map[string]bool{}
	owner := map[string]string{}
	for _, p := range providers {
		if ids[p.ID] {
			return Errorf(CodeConflict, "provider id %s is registered twice; provider ids must be unique", quoteID(p.ID))
		}
		ids[p.ID] = true
		for _, ext := range sortedKeys(p.ExtensionToLanguage) {
			if prev, taken := owner[ext]; taken {
				return Errorf(CodeConflict, "extension %s is claimed by providers %s and %s; each extension belongs to one provider", ext, quoteID(prev), quoteID(p.ID))
			}
			owner[ext] = p.ID
		}
		for _, name := range sortedKeys(p.FileNameToLanguage) {
			if prev, taken := owner["name:"+name]; taken {
				return Errorf(CodeConflict, "file name %s is claimed by providers %s and %s; each file name belongs to one provider", strconv.Quote(clip(name, 80)), quoteID(prev), quoteID(p.ID))
			}
			owner["name:"+name] = p.ID
		}
	}
	return nil
}

// SelectProvider picks the provider that owns filePath's final extension.
// Selection depends only on the set of providers, never on their order.
func SelectProvider(filePath string, providers []ProviderSpec) (Selection, *Error) {
	normalized, err := CheckProviders(providers)
	if err != nil {
		return Selection{}, err
	}
	if id, lang, ok := selectNormalized(filePath, normalized); ok {
		return Selection{ID: id, LanguageID: lang}, nil
	}
	ext := FinalExtension(filePath)
	configured := configuredExtensions(normalized)
	hint := "Use a text search (grep) and read for this file."
	if len(configured) == 0 {
		return Selection{}, Errorf(CodeUnavailable, "no language servers are configured, so lsp cannot answer for %s. %s", strconv.Quote(clip(filePath, 200)), hint)
	}
	list := strings.Join(configured, ", ")
	if ext == "" {
		return Selection{}, Errorf(CodeUnavailable, "%s has no file extension, and lsp picks a language server by the file's final extension (configured: %s). %s", strconv.Quote(clip(filePath, 200)), list, hint)
	}
	return Selection{}, Errorf(CodeUnavailable, "no language server is configured for %s files (configured: %s). %s", clip(ext, 40), list, hint)
}

// selectNormalized picks, among normalized providers, the one that owns
// filePath: by its whole base name first, then by its final extension.
func selectNormalized(filePath string, providers []ProviderSpec) (id, languageID string, ok bool) {
	base := BaseName(filePath)
	for _, p := range providers {
		if lang, found := p.FileNameToLanguage[base]; found {
			return p.ID, lang, true
		}
	}
	ext := FinalExtension(filePath)
	for _, p := range providers {
		if lang, found := p.ExtensionToLanguage[ext]; found {
			return p.ID, lang, true
		}
	}
	return "", "", false
}

// BaseName is the last element of a slash- or backslash-separated path.
func BaseName(filePath string) string {
	if i := strings.LastIndexAny(filePath, `/\`); i >= 0 {
		return filePath[i+1:]
	}
	return filePath
}

func configuredExtensions(providers []ProviderSpec) []string {
	var exts []string
	for _, p := range providers {
		for ext := range p.ExtensionToLanguage {
			exts = append(exts, ext)
		}
		for name := range p.FileNameToLanguage {
			exts = append(exts, name)
		}
	}
	sort.Strings(exts)
	return exts
}

// decodeProviderSpec reads {id, extensionToLanguage} with type errors
// stated per field.
func decodeProviderSpec(v gjson.Result, what string) (ProviderSpec, *Error) {
	if err := requireObject(v, what); err != nil {
		return ProviderSpec{}, err
	}
	id := get(v, "id")
	if id.Type != gjson.String {
		return ProviderSpec{}, Errorf(CodeInvalidArgument, "%s.id must be a string, got %s", what, describe(id))
	}
	m, err := decodeStringMap(get(v, "extensionToLanguage"), what+".extensionToLanguage", CodeInvalidArgument)
	if err != nil {
		return ProviderSpec{}, err
	}
	spec := ProviderSpec{ID: id.Str, ExtensionToLanguage: m}
	if names := get(v, "fileNameToLanguage"); names.Exists() {
		if spec.FileNameToLanguage, err = decodeStringMap(names, what+".fileNameToLanguage", CodeInvalidArgument); err != nil {
			return ProviderSpec{}, err
		}
	}
	return spec, nil
}

// decodeStringMap reads an object of string values, rejecting duplicate
// keys.
func decodeStringMap(v gjson.Result, what string, code Code) (map[string]string, *Error) {
	m, _, err := decodeStringMapAt(v, what, code)
	return m, err
}

// decodeStringMapAt is decodeStringMap that also returns the path of the
// member an error is about (what, or what["key"]).
func decodeStringMapAt(v gjson.Result, what string, code Code) (map[string]string, string, *Error) {
	if !v.IsObject() {
		return nil, what, Errorf(code, "%s must be an object of strings, got %s", what, describe(v))
	}
	if _, dup, ok := objectKeys(v); ok {
		return nil, what + "[" + strconv.Quote(dup) + "]", Errorf(code, "%s has the key %s twice", what, strconv.Quote(clip(dup, 80)))
	}
	m := map[string]string{}
	var bad *Error
	at := what
	v.ForEach(func(k, val gjson.Result) bool {
		if val.Type != gjson.String {
			at = what + "[" + strconv.Quote(k.Str) + "]"
			bad = Errorf(code, "%s[%s] must be a string, got %s", what, strconv.Quote(clip(k.Str, 80)), describe(val))
			return false
		}
		m[k.Str] = val.Str
		return true
	})
	return m, at, bad
}

// CheckProviders normalizes a whole set of registrations and checks that no
// two conflict: what a registry runs before it publishes a new one.
func CheckProviders(providers []ProviderSpec) ([]ProviderSpec, *Error) {
	out := make([]ProviderSpec, len(providers))
	for i, p := range providers {
		n, err := NormalizeProvider(p)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	if err := CheckConflicts(out); err != nil {
		return nil, err
	}
	return out, nil
}

// ProviderList is what checkProviders returns.
type ProviderList struct {
	Providers []ProviderSpec `json:"providers"`
}

func (l ProviderList) appendJSON(b []byte) []byte {
	b = append(b, `{"providers":`...)
	b = appendArray(b, l.Providers)
	return append(b, '}')
}
