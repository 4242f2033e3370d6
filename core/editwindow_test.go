package core

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// editThroughWindow is editText as a host with a window does it: the
// window's answer spliced back, or, on any error, the whole text's
// answer. windowed says the window answered.
func editThroughWindow(t testing.TB, text, old, new string, replaceAll bool) (out []byte, windowed bool) {
	whole := func() []byte {
		in, _ := json.Marshal(map[string]any{"text": text, "oldString": old, "newString": new, "replaceAll": replaceAll, "path": "f.txt"})
		return Call("editText", in)
	}
	w, ok := EditWindowOf(text, old)
	if !ok {
		return whole(), false
	}
	in, _ := json.Marshal(map[string]any{"text": text[w.Start:w.End], "oldString": old, "newString": new, "replaceAll": replaceAll, "path": "f.txt", "window": w})
	env := Call("editText", in)
	if !gjson.GetBytes(env, "ok").Exists() {
		return whole(), false // any error is the whole text's to say
	}
	var res map[string]json.RawMessage
	json.Unmarshal([]byte(gjson.GetBytes(env, "ok").Raw), &res)
	var got string
	json.Unmarshal(res["text"], &got)
	res["text"], _ = json.Marshal(text[:w.Start] + got + text[w.End:])
	b, _ := json.Marshal(map[string]any{"ok": res})
	return b, true
}

// sameEnvelope compares two envelopes as JSON values.
func sameEnvelope(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

func checkWindowed(t testing.TB, text, old, new string, replaceAll bool) bool {
	in, _ := json.Marshal(map[string]any{"text": text, "oldString": old, "newString": new, "replaceAll": replaceAll, "path": "f.txt"})
	want := Call("editText", in)
	got, windowed := editThroughWindow(t, text, old, new, replaceAll)
	if !sameEnvelope(got, want) {
		t.Fatalf("text %q, %q → %q (replaceAll %v):\n through the window %s\n whole text         %s", text, old, new, replaceAll, got, want)
	}
	if !windowed && gjson.GetBytes(want, "ok").Exists() && utf8.ValidString(text) { // JSON made text valid
		t.Fatalf("text %q, %q: the whole text answers, but the window did not: %s", text, old, want)
	}
	return windowed
}

// Every edit answers through a window as through the whole text: random
// texts of few letters and every kind of line break, random old and new
// strings cut from them (so they match, once or often), with and without
// replaceAll, a byte order mark now and then.
func TestEditWindowAnswersAsWholeText(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", "b", "ab", " ", "\n", "\r\n", "\r", "é", "\t", "x\n"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	windowed := 0
	for i := 0; i < 20000; i++ {
		text := gen(r.Intn(40))
		if r.Intn(10) == 0 {
			text = utf8BOM + text
		}
		var old string
		if len(text) > 0 && r.Intn(4) != 0 {
			a := r.Intn(len(text))
			b := a + 1 + r.Intn(min(8, len(text)-a))
			old = text[a:b]
		} else {
			old = gen(1 + r.Intn(3))
		}
		if checkWindowed(t, text, old, gen(r.Intn(4)), r.Intn(3) == 0) {
			windowed++
		}
	}
	if windowed < 2000 {
		t.Fatalf("only %d of 20000 edits answered through the window", windowed)
	}
}

// The golden cases of editText answer the same through a window.
func TestEditWindowGoldenCases(t *testing.T) {
	n := 0
	for _, c := range casesOf(t, "editText") {
		in := gjson.ParseBytes(c.Input)
		text, old, new := in.Get("text"), in.Get("oldString"), in.Get("newString")
		if text.Type != gjson.String || old.Type != gjson.String || new.Type != gjson.String || in.Get("path").Str != "" && in.Get("path").Str != "f.txt" {
			continue
		}
		checkWindowed(t, text.Str, old.Str, new.Str, in.Get("replaceAll").Bool())
		n++
	}
	if n < 5 {
		t.Fatalf("only %d golden editText cases replayed", n)
	}
}

func FuzzEditWindow(f *testing.F) {
	f.Add("a\nb\r\nc\rd", "b\r\nc", "x\ny", false)
	f.Add("\uFEFFab\nab\n", "ab", "c", true)
	f.Add("x\r\ny\r\n", "x\ny", "z\n", false)
	f.Add("a\r\n\r\nb", "\n\r", "", false)
	f.Fuzz(func(t *testing.T, text, old, new string, replaceAll bool) {
		if len(text) > 1<<12 {
			return
		}
		checkWindowed(t, text, old, new, replaceAll)
	})
}
