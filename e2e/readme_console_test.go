package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMETranscripts runs every `$ lspseam …` command of the
// ```console blocks of README.md and docs/*.md against the real servers
// and requires the output the document shows, so the examples a reader
// copies are what the tool prints.
func TestREADMETranscripts(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	type transcript struct{ doc, command, want string }
	var runs []transcript
	for _, path := range append([]string{filepath.Join(repoRoot, "README.md")}, docs...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := filepath.Rel(repoRoot, path)
		doc = filepath.ToSlash(doc)
		in := false
		first := len(runs)
		for _, line := range strings.Split(string(data), "\n") {
			switch {
			case line == "```console":
				in = true
			case in && line == "```":
				in = false
			case in && strings.HasPrefix(line, "$ "):
				runs = append(runs, transcript{doc: doc, command: line[2:]})
			case in && len(runs) > first:
				runs[len(runs)-1].want += line + "\n"
			}
		}
	}
	if len(runs) == 0 {
		t.Fatal("neither README.md nor docs/*.md has a ```console transcript; the pattern no longer matches")
	}
	for _, r := range runs {
		args := shellWords(t, r.command)
		if len(args) == 0 || args[0] != "lspseam" {
			t.Errorf("%s: transcript command %q does not run lspseam", r.doc, r.command)
			continue
		}
		t.Run(strings.Join(args[1:3], " "), func(t *testing.T) {
			cmd := exec.Command(shimPath, args[1:]...)
			cmd.Dir = repoRoot
			cmd.Env = append(os.Environ(), "PATH="+toolsBin+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.Output()
			if code := exitCode(t, err); code != 0 {
				t.Fatalf("%s: %s: exit %d\n%s", r.doc, r.command, code, out)
			}
			if string(out) != r.want {
				t.Errorf("%s\n got:\n%s\nwant (%s):\n%s", r.command, out, r.doc, r.want)
			}
		})
	}
}

// shellWords splits a command line as sh would for the forms the
// transcripts use: words separated by spaces, and single-quoted strings taken as is.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
