package localstdio

import (
	"sort"
	"strings"
)

// The environment servers get: the host's, minus credentials and lspseam's
// own settings, plus the server's configured env.

// scrubbedName reports whether an environment variable must not reach a
// language server: names containing KEY, PASSWORD, SECRET or TOKEN (any
// case; broad on purpose, a server never needs them) and lspseam's own
// LSPSEAM_* settings.
func scrubbedName(name string) bool {
	upper := strings.ToUpper(name)
	if strings.HasPrefix(upper, "LSPSEAM_") {
		return true
	}
	for _, word := range []string{"KEY", "PASSWORD", "SECRET", "TOKEN"} {
		if strings.Contains(upper, word) {
			return true
		}
	}
	return false
}

// ServerEnv builds a server's environment from the host environment
// (os.Environ form) and the configured extra variables, which are applied
// after scrubbing and so may set any name.
func ServerEnv(host []string, extra map[string]string) []string {
	vars := map[string]string{}
	var order []string
	for _, kv := range host {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || scrubbedName(name) {
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
