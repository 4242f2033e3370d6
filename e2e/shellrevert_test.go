package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDependentAfterShellRevert: an edit of an interface's method breaks
// the class implementing it (its answer lists the class's P1038); the
// shell then reverts the interface on disk, and the class's diagnostics
// are asked at once. The class's content never changed, so its report
// from before the revert counted as fresh: intelephense, told of the
// revert, clears the closed interface's report at once, re-indexes it for
// about half a second and only then re-checks the class, and that first
// report was taken as its sign of having processed the change (measured
// on nikic/FastRoute: the old P1038 answered "fresh" in 6 of 7 runs).
// Now the answer is the class's new report (no problems, fresh), or the
// old one marked stale — never the old one as fresh. Whether the old
// code failed here depends on intelephense's timing (it did in every run
// on this machine); the fake-server test
// (localstdio/catchupreports_test.go) is the deterministic one.
func TestDependentAfterShellRevert(t *testing.T) {
	requireServers(t, "intelephense")
	dir := t.TempDir()
	const iface = "<?php\n\nnamespace Routes;\n\ninterface ConfigureRoutes\n{\n    public function get(string $route, mixed $handler): void;\n}\n"
	files := map[string]string{
		"composer.json":           `{"name": "example/routes", "autoload": {"psr-4": {"Routes\\": "src/"}}}` + "\n",
		"src/ConfigureRoutes.php": iface,
		"src/RouteCollector.php":  "<?php\n\nnamespace Routes;\n\nclass RouteCollector implements ConfigureRoutes\n{\n    /** @var array<string, mixed> */\n    private array $routes = [];\n\n    public function get(string $route, mixed $handler): void\n    {\n        $this->routes[$route] = $handler;\n    }\n}\n",
	}
	for rel, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	const changed, class = "src/ConfigureRoutes.php", "src/RouteCollector.php"
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": changed}), dir); a.IsError {
		t.Fatalf("read: %s", a.Content[0].Text)
	}
	e := verifyEdit{"public function get(string $route, mixed $handler): void;", "public function get(string $route, int $priority, mixed $handler): void;"}
	a := srv.toolCall(t, "edit", editArgs(changed, e, false), dir)
	if o := othersOf(t, "edit", a); !strings.Contains(a.Content[0].Text, class) || !strings.Contains(a.Content[0].Text, "P1038") || len(o.Stale) > 0 {
		t.Fatalf("the edit's answer does not list %s's P1038, fresh (nothing to test after it):\n%s", class, a.Content[0].Text)
	}
	// The shell reverts the interface (git checkout -- …).
	if err := os.WriteFile(filepath.Join(dir, changed), []byte(iface), 0o644); err != nil {
		t.Fatal(err)
	}
	a = srv.toolCall(t, "code_diagnostics", jsonArgs(map[string]any{"path": class, "severity": "error"}), dir)
	text := a.Content[0].Text
	var d struct {
		Status string `json:"status"`
	}
	if a.IsError || json.Unmarshal(a.StructuredContent, &d) != nil {
		t.Fatalf("code_diagnostics of %s: %s", class, text)
	}
	t.Logf("code_diagnostics after the revert:\n%s", text)
	switch {
	case strings.Contains(text, "P1038") && d.Status == "fresh":
		t.Fatalf("the class's error against the interface before the revert is answered fresh:\n%s", text)
	case strings.Contains(text, "P1038") && !strings.Contains(text, "from before language server \"intelephense\" applied the files changed on disk"):
		t.Fatalf("the class's old error is answered %s without saying why:\n%s", d.Status, text)
	case !strings.Contains(text, "P1038") && d.Status != "fresh":
		t.Fatalf("no problems, but %s:\n%s", d.Status, text)
	}
}
