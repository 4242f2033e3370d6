package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// pyrightOutline is pyright's documentSymbol answer for one class whose
// members are given as name, kind, and zero-based lines (start, name,
// end): pyright
// lists a property's last accessor only.
func pyrightOutline(class string, classLines [2]int, members ...any) string {
	rng := func(a, b int) string {
		return fmt.Sprintf(`{"start":{"line":%d,"character":0},"end":{"line":%d,"character":1}}`, a, b)
	}
	var kids []string
	for i := 0; i < len(members); i += 3 {
		lines := members[i+2].([3]int) // start, the name's line, end
		kids = append(kids, fmt.Sprintf(`{"name":%q,"kind":6,"range":%s,"selectionRange":%s}`, members[i], rng(lines[0], lines[2]), rng(lines[1], lines[1])))
	}
	return fmt.Sprintf(`[{"name":%q,"kind":5,"range":%s,"selectionRange":%s,"children":[%s]}]`, class, rng(classLines[0], classLines[1]), rng(classLines[0], classLines[0]), strings.Join(kids, ","))
}

func TestPropertyAccessorsInTheOutline(t *testing.T) {
	type entry struct {
		name       string
		start, end uint32 // one-based lines of the range
		nameLine   uint32
	}
	tests := []struct {
		name    string
		text    string
		outline string
		want    []entry
	}{{
		name: "getter and setter",
		text: "class Headers:\n" + // 1
			"    def __init__(self) -> None:\n" +
			"        self._enc = \"ascii\"\n" +
			"\n" +
			"    @property\n" + // 5
			"    def encoding(self) -> str:\n" +
			"        \"\"\"The encoding.\"\"\"\n" +
			"        return self._enc\n" +
			"\n" +
			"    @encoding.setter\n" + // 10
			"    def encoding(self, value: str) -> None:\n" +
			"        self._enc = value\n" +
			"\n" +
			"    def other(self) -> int:\n" +
			"        return 1\n", // 15
		outline: pyrightOutline("Headers", [2]int{0, 14}, "__init__", "m", [3]int{1, 1, 2}, "encoding", "m", [3]int{9, 10, 11}, "other", "m", [3]int{13, 13, 14}),
		want:    []entry{{"Headers", 1, 15, 1}, {"__init__", 2, 3, 2}, {"encoding", 5, 8, 6}, {"encoding", 10, 12, 11}, {"other", 14, 15, 14}},
	}, {
		name: "a multi-line signature, a docstring at column 0, a deleter",
		text: "class C:\n" + // 1
			"    @property\n" +
			"    @cache\n" +
			"    async def value(\n" +
			"        self,\n" + // 5
			"    ) -> int:\n" +
			"        \"\"\"Doc\n" +
			"not indented\n" +
			"        \"\"\"\n" +
			"        return 1\n" + // 10
			"    # a comment\n" +
			"    @value.setter\n" +
			"    def value(self, v):\n" +
			"        pass\n" +
			"    @value.deleter  # gone\n" + // 15
			"    def value(self):\n" +
			"        pass\n",
		outline: pyrightOutline("C", [2]int{0, 16}, "value", "m", [3]int{14, 15, 16}),
		want:    []entry{{"C", 1, 17, 1}, {"value", 2, 10, 4}, {"value", 12, 14, 13}, {"value", 15, 17, 16}},
	}, {
		name:    "no setter: nothing added",
		text:    "class C:\n    @property\n    def v(self):\n        return 1\n\n    def v2(self):\n        pass\n",
		outline: pyrightOutline("C", [2]int{0, 6}, "v", "m", [3]int{1, 2, 3}, "v2", "m", [3]int{5, 5, 6}),
		want:    []entry{{"C", 1, 7, 1}, {"v", 2, 4, 3}, {"v2", 6, 7, 6}},
	}, {
		name:    "another class's accessor of the same name is not this one's",
		text:    "class A:\n    @property\n    def v(self):\n        return 1\nclass B:\n    @v.setter\n    def v(self, x):\n        pass\n",
		outline: pyrightOutline("B", [2]int{4, 7}, "v", "m", [3]int{5, 6, 7}),
		want:    []entry{{"B", 5, 8, 5}, {"v", 6, 8, 7}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syms, err := FlattenSymbols(gjson.Parse(tt.outline), tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var got []entry
			for _, s := range syms {
				got = append(got, entry{s.Name, s.Range.Start.Line + 1, s.Range.End.Line + 1, s.Selection.Start.Line + 1})
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("outline = %v\nwant      %v", got, tt.want)
			}
		})
	}
}

// A target by the property's name names both accessors instead of
// taking the setter.
func TestPropertyTargetIsAmbiguous(t *testing.T) {
	text := "class Headers:\n    @property\n    def encoding(self):\n        return 1\n\n    @encoding.setter\n    def encoding(self, v):\n        pass\n"
	syms, err := FlattenSymbols(gjson.Parse(pyrightOutline("Headers", [2]int{0, 7}, "encoding", "m", [3]int{5, 6, 7})), text)
	if err != nil {
		t.Fatal(err)
	}
	_, cands, rerr := ResolveTarget(Target{Path: "m.py", Symbol: "Headers.encoding"}, false, TargetFile{Text: text, Symbols: syms})
	if rerr == nil || rerr.Code != CodeAmbiguousTarget || len(cands) != 2 || cands[0].Line != 3 || cands[1].Line != 7 {
		t.Fatalf("ResolveTarget = %v, %+v; want LSP_AMBIGUOUS_TARGET with lines 3 and 7", rerr, cands)
	}
	r, _, rerr := ResolveTarget(Target{Path: "m.py", Symbol: "Headers.encoding", Line: 3}, false, TargetFile{Text: text, Symbols: syms})
	if rerr != nil || r.Position.Line != 2 || r.Range.Start.Line != 1 || r.Range.End.Line != 3 {
		t.Fatalf("with line 3: %+v, %v; want the getter, lines 2–4", r, rerr)
	}
}
