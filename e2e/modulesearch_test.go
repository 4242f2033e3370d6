package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerraformModuleSearch: terraform-ls decodes a module's uses only once
// one of its files was opened, and a resource's arguments only with its
// provider's schema (none here: no embedded schemas, no terraform init).
// On a fresh server, references of the network module's variable
// cidr_block answered "No locations found" (main.tf, whose module call
// sets it, was not open), unmarked, and code_delete of variable "name",
// set by the same call and used in the module's terraform_data, went
// ahead. Now the call is found on the first question, the answer says the
// resource's arguments were not searched, and the delete is refused as
// still used. A module without resource or data blocks is not marked.
func TestTerraformModuleSearch(t *testing.T) {
	requireServers(t, "terraform-ls")
	const notice = `does not search the arguments of resource "terraform_data"`
	srv := catalogServe(t)
	defer srv.shutdown(t)

	dir := copyFixture(t, "terraform")
	os.Remove(filepath.Join(dir, "broken.tf")) // its error is no part of this
	a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "modules/network/variables.tf", "line": 1, "matchText": "cidr_block"}, "kind": "references"}), dir)
	if a.IsError || !strings.Contains(a.Content[0].Text, "main.tf\n  11:3") {
		t.Errorf("references of cidr_block miss the module call in main.tf (not open): %s", a.Content[0].Text)
	}
	if !strings.Contains(incomplete(a.StructuredContent), notice) {
		t.Errorf("references of cidr_block, used in terraform_data's input, are not marked incomplete: %s", a.Content[0].Text)
	}

	del := copyFixture(t, "terraform")
	os.Remove(filepath.Join(del, "broken.tf"))
	before := string(readFile(t, filepath.Join(del, "modules/network/variables.tf")))
	a = srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "modules/network/variables.tf", "symbol": `variable "name"`}}), del)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || errObj["code"] != "LSP_CONFLICT" {
		t.Errorf("deleting variable \"name\", set by main.tf's module call and used by the module: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(del, "modules/network/variables.tf"))); got != before {
		t.Errorf("a refused delete changed variables.tf")
	}

	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "main.tf"), []byte("variable \"region\" {\n  type = string\n}\n\noutput \"region\" {\n  value = var.region\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a = srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "main.tf", "line": 1, "matchText": "region"}, "kind": "references"}), plain)
	if a.IsError || incomplete(a.StructuredContent) != "" || !strings.Contains(a.Content[0].Text, "6:11") {
		t.Errorf("references in a module without resources: %s", a.Content[0].Text)
	}
}
