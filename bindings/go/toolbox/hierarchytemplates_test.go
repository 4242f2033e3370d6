package toolbox

import (
	"testing"

	"github.com/lspseam/lspseam/core"
)

func TestTemplateCallAt(t *testing.T) {
	vue := "<script setup lang=\"ts\">\nimport { canEdit } from \"./permissions\";\nconst ok = canEdit(\"a\");\n</script>\n\n<template>\n  <button v-if=\"canEdit(role)\">Edit</button>\n  <i>{{ canEdit }}</i>\n  <b v-if=\"user?.canEdit?.(role)\" />\n</template>\n<style>\n.canEdit { color: red }\n</style>\n"
	at := func(line, col uint32) core.Range {
		return core.Range{Start: core.Position{Line: line, Character: col}, End: core.Position{Line: line, Character: col + 7}}
	}
	for _, c := range []struct {
		name string
		r    core.Range
		want bool
	}{
		{"template call", at(6, 16), true},
		{"script call", at(2, 11), false},
		{"import", at(1, 9), false},
		{"template use, not called", at(7, 8), false},
		{"optional call", at(8, 17), true},
		{"style", at(11, 1), false},
		{"column off the name", at(6, 17), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := componentCallAt("file:///w/EditGate.vue", vue, c.r, "canEdit", false); got != c.want {
				t.Errorf("componentCallAt(%v, no scripts) = %v, want %v", c.r, got, c.want)
			}
		})
	}
	if line, col := templateTag(vue); line != 5 || col != 1 {
		t.Errorf("templateTag = %d:%d, want 5:1", line, col)
	}
}
