package core

import (
	"strconv"

	"github.com/tidwall/gjson"
)

// Length bounds of the short string arguments (issue 21, "nothing lost,
// nothing leaked"): a path or a name of a megabyte is no mistake a model
// can mean, and every later stage (routing, the file system, the language
// server, the error that echoes it) would carry it. So each is refused at
// validation, naming the field and its limit, before anything reads it;
// the tool schemas state the same limits as maxLength, where the model can
// see them (a test checks they agree). The long text arguments (write's
// content, edit's strings, insert's and replace's text) are bounded by the
// host's document limit and the transport's message limit instead.
const (
	// maxPathBytes bounds a file path: Linux's PATH_MAX.
	maxPathBytes = 4096
	// maxNameBytes bounds a symbol, a new name, an action kind or id:
	// far beyond any identifier or Container.member a language has.
	maxNameBytes = 1024
	// maxPreviewIDBytes bounds a previewId (the host's are under 100).
	maxPreviewIDBytes = 200
	maxQueryLength    = 1000
	maxMatchTextLen   = 1000
)

// argLimits maps a string argument's name, at the top level of a tool's
// arguments or in a target, to its limit in bytes (UTF-8, as sent).
var argLimits = map[string]int{
	"path":      maxPathBytes,
	"file_path": maxPathBytes,
	"newPath":   maxPathBytes,
	"symbol":    maxNameBytes,
	"newName":   maxNameBytes,
	"only":      maxNameBytes,
	"apply":     maxNameBytes,
	"previewId": maxPreviewIDBytes,
	"query":     maxQueryLength,
	"matchText": maxMatchTextLen,
}

// overlongArgs reports every string argument over its limit: at the top
// level of args, in its target, and in each of its edits and their
// targets. It reports lengths, never the values: echoing a megabyte back
// is what the limit prevents. The problems are named where they are
// (target.path, edits[2].target.symbol).
func overlongArgs(args gjson.Result) []string {
	var problems []string
	check := func(where string, obj gjson.Result) {
		if !obj.IsObject() {
			return
		}
		obj.ForEach(func(k, v gjson.Result) bool {
			limit, ok := argLimits[k.Str]
			if ok && v.Type == gjson.String && len(v.Str) > limit {
				problems = append(problems, where+k.Str+" is "+strconv.Itoa(len(v.Str))+" bytes, over its limit of "+strconv.Itoa(limit)+" bytes")
			}
			return true
		})
	}
	check("", args)
	check("target.", get(args, "target"))
	if edits := get(args, "edits"); edits.IsArray() {
		i := 0
		edits.ForEach(func(_, e gjson.Result) bool {
			where := "edits[" + strconv.Itoa(i) + "]."
			check(where, e)
			check(where+"target.", get(e, "target"))
			i++
			return i <= maxBatchEdits // more is refused by batchEdits
		})
	}
	return problems
}
