package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// A string argument over its limit is refused, naming the field, its
// length and the limit, without echoing the value; one at the limit is not
// refused for its length (issue 21).
func TestOverlongArgumentsRefused(t *testing.T) {
	long := func(n int) string { return strconv.Quote(strings.Repeat("a", n)) }
	tests := []struct {
		tool  string // "lsp": ParseToolArgs
		args  string
		field string // "": within the limits
	}{
		{"lsp", `{"operation":"hover","file_path":` + long(maxPathBytes+1) + `,"line":1,"character":1}`, "file_path"},
		{"lsp", `{"operation":"hover","file_path":` + long(maxPathBytes) + `,"line":1,"character":1}`, ""},
		{"lsp", `{"operation":"hover","file_path":` + long(1<<20) + `,"line":1,"character":1}`, "file_path"},
		{ToolCodeSymbols, `{"path":` + long(maxPathBytes+1) + `}`, "path"},
		{ToolCodeSymbols, `{"path":"a.go","query":` + long(maxQueryLength+1) + `}`, "query"},
		{ToolCodeHover, `{"target":{"path":"a.go","symbol":` + long(maxNameBytes+1) + `}}`, "target.symbol"},
		{ToolCodeHover, `{"target":{"path":"a.go","symbol":` + long(maxNameBytes) + `}}`, ""},
		{ToolCodeHover, `{"target":{"path":"a.go","line":1,"matchText":` + long(maxMatchTextLen+1) + `}}`, "target.matchText"},
		{ToolCodeRename, `{"target":{"path":"a.go","symbol":"X"},"newName":` + long(1<<20) + `}`, "newName"},
		{ToolCodeRename, `{"target":{"path":"a.go","symbol":"X"},"newName":"Y","previewId":` + long(maxPreviewIDBytes+1) + `}`, "previewId"},
		{ToolCodeRenameFile, `{"path":"a.go","newPath":` + long(maxPathBytes+1) + `}`, "newPath"},
		{ToolCodeActions, `{"path":"a.go","line":1,"apply":` + long(maxNameBytes+1) + `}`, "apply"},
		{ToolCodeActions, `{"path":"a.go","line":1,"only":` + long(maxNameBytes+1) + `}`, "only"},
		{ToolCodeReplaceBatch, `{"edits":[{"target":{"path":"a.go","symbol":"X"},"text":""},{"target":{"path":` + long(maxPathBytes+1) + `,"symbol":"X"},"text":""}]}`, "edits[1].target.path"},
		{ToolRead, `{"file_path":` + long(maxPathBytes+1) + `}`, "file_path"},
		{ToolWrite, `{"file_path":"a.go","content":` + long(maxPathBytes*10) + `}`, ""}, // content is not a name
	}
	for _, tt := range tests {
		args := gjson.Parse(tt.args)
		var err *Error
		if tt.tool == "lsp" {
			_, err = ParseToolArgs(args)
		} else {
			_, err = ParseCodeArgs(tt.tool, args)
		}
		over := err != nil && strings.Contains(err.Message, "over its limit")
		if tt.field == "" {
			if over {
				t.Errorf("%s %s…: refused for its length: %s", tt.tool, clip(tt.args, 60), err.Message)
			}
			continue
		}
		if !over || (err.Code != CodeInvalidArgument && err.Code != CodeFSInvalidArgument) {
			t.Errorf("%s: %s over its limit: got %v", tt.tool, tt.field, err)
			continue
		}
		if !strings.Contains(err.Message, tt.field+" is ") || !strings.Contains(err.Message, "over its limit of "+strconv.Itoa(argLimits[tt.field[strings.LastIndexByte(tt.field, '.')+1:]])+" bytes") {
			t.Errorf("%s: the error must name %s and its limit: %s", tt.tool, tt.field, err.Message)
		}
		if len(err.Message) > 2000 || strings.Contains(err.Message, "aaaaaaaaaaaaaaaa") {
			t.Errorf("%s: the error echoes the value (%d bytes): %s", tt.tool, len(err.Message), clip(err.Message, 300))
		}
	}
}

// No schema states a maxLength: the bounds (argLimits) are far past any
// legitimate value, the core enforces them and its error gives the
// length and the limit, so stating them in every prompt's listing bought
// a model nothing (issue 23: 73 of the default listing's tokens).
func TestSchemasLeaveLengthBoundsToErrors(t *testing.T) {
	defs, err := ToolDefinitions(Toolsets)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{ToolName: toolInputSchema}
	for _, d := range defs {
		schemas[d.Name] = string(d.InputSchema)
	}
	var walk func(tool string, props gjson.Result)
	walk = func(tool string, props gjson.Result) {
		props.ForEach(func(k, v gjson.Result) bool {
			if max := v.Get("maxLength"); max.Exists() {
				t.Errorf("%s: %s states maxLength %s: the listing leaves length bounds to the core's errors (limit %d)", tool, k.Str, max.Raw, argLimits[k.Str])
			}
			walk(tool, v.Get("properties"))
			walk(tool, v.Get("items.properties"))
			return true
		})
	}
	for tool, s := range schemas {
		if !gjson.Valid(s) {
			t.Fatalf("%s: schema is not JSON", tool)
		}
		walk(tool, gjson.Get(s, "properties"))
	}
}
