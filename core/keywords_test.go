package core

import "testing"

// TestFirstNonKeyword: a target by line alone skips the language's
// keywords (and keeps a private #name's '#'); a common name that is a
// keyword only in some places is not skipped; an unknown language skips
// nothing.
func TestFirstNonKeyword(t *testing.T) {
	tests := []struct {
		path, line, want string
	}{
		{"a.ts", "\t\tawait this.#retry(error);", "#retry"},
		{"a.ts", "\tconst x = get(url);", "x"},
		{"a.ts", "\treturn get(url);", "get"},
		{"a.py", "    return total(xs)", "total"},
		{"a.py", "    match = re.match(p, s)", "match"},
		{"a.go", "\tdefer f.Close()", "f"},
		{"a.c", "#define SDS_HDR_VAR(T,s) x", "SDS_HDR_VAR"},
		{"a.c", "    int error = 0;", "error"},
		{"a.rs", "    return x;", ""}, // the caller takes the first non-blank
		{"a.ts", "\t});", ""},
	}
	for _, tt := range tests {
		got := ""
		if i, ok := firstNonKeyword(tt.line, tt.path); ok {
			got, _ = identifierAt(tt.line, columnOfByteOffset(tt.line, i))
		}
		if got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.path, tt.line, got, tt.want)
		}
	}
}

// TestLooksDeclared: the lines a missing name's hint offers first.
func TestLooksDeclared(t *testing.T) {
	tests := []struct {
		line, name string
		want       bool
	}{
		{"from .utils import format_filename as format_filename", "format_filename", true},
		{"#define SDS_HDR_VAR(T,s) x", "SDS_HDR_VAR", true},
		{"\tlimit?: number;", "limit", true},
		{"\treadonly limit: number;", "limit", true},
		{"    self.limit = 3", "limit", true},
		{"\tshouldRetry?: (state: State, limit: number) => boolean;", "limit", false},
		{"\tif (limit == 3) {", "limit", false},
		{"\tSDS_HDR_VAR(8,s);", "SDS_HDR_VAR", false},
		{"\tconst f = (limit) => limit;", "limit", false},
	}
	for _, tt := range tests {
		col, ok := findIdentifier(tt.line, tt.name, 0)
		if !ok {
			t.Fatalf("%q has no %s", tt.line, tt.name)
		}
		s := byteOffsetOfColumn(tt.line, col)
		if got := looksDeclared(tt.line, s, s+len(tt.name)); got != tt.want {
			t.Errorf("looksDeclared(%q, %s) = %v, want %v", tt.line, tt.name, got, tt.want)
		}
	}
}
