package localstdio

import (
	"bytes"
	"encoding/json"
	"path/filepath"
)

// commandNodeModules is the placeholder a server's initializationOptions
// may hold in a string for the node_modules directory its command was
// installed into: typescript-language-server loads tsserver plugins (the
// Vue one) named by directory, and the plugin sits beside the server
// wherever it was installed (.tools/npm, a global npm prefix), which the
// table cannot know.
const commandNodeModules = "${commandNodeModules}"

// expandInitializationOptions replaces commandNodeModules in raw with the
// node_modules directory holding the server executable at path (after
// its symbolic links), or with "" when it is not inside one.
func expandInitializationOptions(raw json.RawMessage, path string) json.RawMessage {
	if !bytes.Contains(raw, []byte(commandNodeModules)) {
		return raw
	}
	quoted, _ := json.Marshal(nodeModulesOf(path))
	return bytes.ReplaceAll(raw, []byte(commandNodeModules), quoted[1:len(quoted)-1])
}

// nodeModulesOf returns the nearest directory named node_modules above the
// file path points to ("" when there is none): npm links a package's
// executable from node_modules/.bin or PREFIX/bin into the package.
func nodeModulesOf(path string) string {
	if path == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	for dir := filepath.Dir(path); ; {
		if filepath.Base(dir) == "node_modules" {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
