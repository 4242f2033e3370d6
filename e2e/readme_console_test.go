package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMETranscripts runs every `$ lspseam …` command of README.md's
// ```console blocks against the real servers and requires the output the
// README shows, so the examples a reader copies are what the tool prints.
func TestREADMETranscripts(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	type transcript struct{ command, want string }
	var runs []transcript
	in := false
	for _, line := range strings.Split(string(readme), "\n") {
		switch {
		case line == "```console":
			in = true
		case in && line == "```":
			in = false
		case in && strings.HasPrefix(line, "$ "):
			runs = append(runs, transcript{command: line[2:]})
		case in && len(runs) > 0:
			runs[len(runs)-1].want += line + "\n"
		}
	}
	if len(runs) == 0 {
		t.Fatal("README.md has no ```console transcript; the pattern no longer matches")
	}
	for _, r := range runs {
		args := shellWords(t, r.command)
		if len(args) == 0 || args[0] != "lspseam" {
			t.Errorf("transcript command %q does not run lspseam", r.command)
			continue
		}
		t.Run(strings.Join(args[1:3], " "), func(t *testing.T) {
			cmd := exec.Command(shimPath, args[1:]...)
			cmd.Dir = repoRoot
			cmd.Env = append(os.Environ(), "PATH="+toolsBin+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.Output()
			if code := exitCode(t, err); code != 0 {
				t.Fatalf("%s: exit %d\n%s", r.command, code, out)
			}
			if string(out) != r.want {
				t.Errorf("%s\n got:\n%s\nwant (README.md):\n%s", r.command, out, r.want)
			}
		})
	}
}

// shellWords splits a command line as sh would for the forms the README
// uses: words separated by spaces, and single-quoted strings taken as is.
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
