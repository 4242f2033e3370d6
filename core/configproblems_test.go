package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// A config error's message is its problems' messages, in order, and each
// problem names the member it is about by the path a host looks up.
func TestConfigProblemsPaths(t *testing.T) {
	in := `{"bogus":1,"timeoutMs":-1,"servers":{"x":{"comand":"a","args":["a",3],"env":{"A":1},"rootMarkers":["ok","a/b"],"passEnv":["A="]},"y":5}}`
	_, err := ValidateConfig(gjson.Parse(in))
	if err == nil {
		t.Fatal("validated")
	}
	var paths, msgs []string
	for _, p := range err.Problems {
		paths = append(paths, p.Path)
		msgs = append(msgs, p.Message)
		if p.Line != 0 {
			t.Errorf("%s: the core set a line", p.Path)
		}
	}
	want := []string{"bogus", "timeoutMs", "servers.x.comand", "servers.x.command", "servers.x.args[1]", `servers.x.env["A"]`, "servers.x.extensionToLanguage",
		"servers.x.rootMarkers[1]", "servers.x.passEnv[0]", "servers.y"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("paths\n %q\nwant\n %q", paths, want)
	}
	if got := "invalid lspseam config: " + strings.Join(msgs, "; "); got != err.Message {
		t.Errorf("message %q\nis not its problems' %q", err.Message, got)
	}
}
