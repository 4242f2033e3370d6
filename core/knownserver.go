package core

import (
	"sort"

	"github.com/tidwall/gjson"
)

// Known servers in a config: the table's defaults beneath what the config
// says (a hand-written config gets exactly what a preset gets), and the
// presets themselves as a config.

// applyKnownDefaults puts entry's defaults beneath s: initialization
// options and configuration are merged (s's keys win, objects merged key by
// key), and args and root markers are the entry's when the config gave
// none.
func (s *ServerConfig) applyKnownDefaults(entry ServerEntry, hasArgs, hasRootMarkers bool) {
	s.Known = entry.ID
	s.InitializationOptions = mergeJSON(entry.InitializationOptions, s.InitializationOptions)
	s.Configuration = mergeJSON(entry.Configuration, s.Configuration)
	if !hasArgs && len(entry.Args) > 0 {
		s.Args = append([]string(nil), entry.Args...)
	}
	if !hasRootMarkers && len(entry.RootMarkers) > 0 {
		s.RootMarkers = append([]string(nil), entry.RootMarkers...)
	}
}

// mergeJSON overlays over on base: two objects merge key by key
// (recursively, keys sorted, so merging again changes nothing); otherwise
// over wins when present.
func mergeJSON(base, over RawJSON) RawJSON {
	if len(base) == 0 {
		return over
	}
	if len(over) == 0 {
		over = RawJSON("{}")
	}
	b, o := gjson.Parse(string(base)), gjson.Parse(string(over))
	if !b.IsObject() || !o.IsObject() {
		if string(over) == "{}" {
			return base
		}
		return over
	}
	merged := map[string]RawJSON{}
	overlay := map[string]RawJSON{}
	b.ForEach(func(k, v gjson.Result) bool { merged[k.Str] = RawJSON(v.Raw); return true })
	o.ForEach(func(k, v gjson.Result) bool {
		overlay[k.Str] = RawJSON(v.Raw)
		merged[k.Str] = merged[k.Str]
		return true
	})
	for k := range merged {
		merged[k] = mergeJSON(merged[k], overlay[k])
	}
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendString(out, k)
		out = append(out, ':')
		out = appendCompact(out, gjson.Parse(string(merged[k])))
	}
	return RawJSON(append(out, '}'))
}

// presetServer is the config entry of a preset: optional, so a machine
// with only some servers installed loads the table.
func presetServer(e ServerEntry) ServerConfig {
	s := ServerConfig{
		Command:             e.Command,
		Args:                append([]string{}, e.Args...),
		Env:                 map[string]string{},
		ExtensionToLanguage: e.ExtensionToLanguage(),
		FileNameToLanguage:  e.FileNameToLanguage(),
		MaxMessageBytes:     DefaultMaxMessageBytes,
		MaxStderrBytes:      DefaultMaxStderrBytes,
		MaxDocumentBytes:    DefaultMaxDocumentBytes,
		ShutdownTimeoutMs:   DefaultShutdownTimeoutMs,
		KillGraceMs:         DefaultKillGraceMs,
		RootMarkers:         append([]string{}, e.RootMarkers...),
		MaxOpenDocuments:    DefaultMaxOpenDocuments,
		IdleTimeoutMs:       DefaultIdleTimeoutMs,
		PassEnv:             []string{},
		Optional:            true,
	}
	s.applyKnownDefaults(e, true, true)
	return s
}

// addPresets adds the presets to a config's servers (the config's
// `presets: true`): a server of the config replaces the preset of the same
// id, and takes over the extensions and file names it claims from every
// preset (a preset left with none is dropped).
func addPresets(servers map[string]ServerConfig) {
	claimed := map[string]bool{}
	for _, s := range servers {
		for ext := range s.ExtensionToLanguage {
			claimed[ext] = true
		}
		for name := range s.FileNameToLanguage {
			claimed["name:"+name] = true
		}
	}
	for _, e := range presetEntries() {
		if _, own := servers[e.ID]; own {
			continue
		}
		s := presetServer(e)
		for ext := range s.ExtensionToLanguage {
			if claimed[ext] {
				delete(s.ExtensionToLanguage, ext)
			}
		}
		for name := range s.FileNameToLanguage {
			if claimed["name:"+name] {
				delete(s.FileNameToLanguage, name)
			}
		}
		if len(s.ExtensionToLanguage) > 0 || len(s.FileNameToLanguage) > 0 {
			servers[e.ID] = s
		}
	}
}
