package core

import "strings"

// Source languages a workspace-wide answer accounts for. A workspace file
// whose extension no configured server owns is simply unknown to lspseam;
// but when it is source code, an answer that searched "the workspace" for
// a name without it would be silently partial. This table names the
// languages whose files are such source code, so an answer can say which
// of them it could not search (a workspace's README.md or go.sum is not
// one). It only names languages: which server serves them is the
// configuration's business (provider.go).
var sourceLanguages = map[string]string{
	".go":     "Go",
	".ts":     "TypeScript",
	".tsx":    "TypeScript",
	".mts":    "TypeScript",
	".cts":    "TypeScript",
	".js":     "JavaScript",
	".jsx":    "JavaScript",
	".mjs":    "JavaScript",
	".cjs":    "JavaScript",
	".py":     "Python",
	".pyi":    "Python",
	".c":      "C",
	".h":      "C",
	".cc":     "C++",
	".cpp":    "C++",
	".cxx":    "C++",
	".hh":     "C++",
	".hpp":    "C++",
	".hxx":    "C++",
	".rs":     "Rust",
	".java":   "Java",
	".kt":     "Kotlin",
	".kts":    "Kotlin",
	".scala":  "Scala",
	".cs":     "C#",
	".fs":     "F#",
	".swift":  "Swift",
	".m":      "Objective-C",
	".rb":     "Ruby",
	".php":    "PHP",
	".lua":    "Lua",
	".zig":    "Zig",
	".dart":   "Dart",
	".ex":     "Elixir",
	".exs":    "Elixir",
	".erl":    "Erlang",
	".hs":     "Haskell",
	".ml":     "OCaml",
	".clj":    "Clojure",
	".vue":    "Vue",
	".svelte": "Svelte",
}

// SourceLanguage names the source language of files with extension ext
// (".rs" → "Rust"; any case), "" when ext is not known as source code.
func SourceLanguage(ext string) string {
	return sourceLanguages[strings.ToLower(ext)]
}
