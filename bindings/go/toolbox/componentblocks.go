package toolbox

import "strings"

// The <script> and <style> blocks of a component file (.vue, .svelte,
// .astro), read by lines: what is outside them is the component's markup.
// Read the same way for the surface a Vue change may touch
// (vuesurface.go), the template calls a callers answer adds
// (hierarchytemplates.go) and the markup entries a change's dependents
// leave out (impact.go).

// componentBlock is a block of a component's lines: open and close are the
// lines of its tags (close is the last line when it is not closed), tag
// its name and opening the opening tag's line, trimmed.
type componentBlock struct {
	open, close  int
	tag, opening string
}

// componentBlocks finds the blocks of the tags (script, style) in lines,
// in one pass: a line that starts, after blanks, with `<tag` followed by
// a blank, `>` or nothing opens one, and the first `</tag` after that
// opening (on its line or a later one) closes it; a block's lines are not
// searched for other openings.
func componentBlocks(lines []string, tags ...string) []componentBlock {
	var out []componentBlock
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		tag := ""
		for _, name := range tags {
			if strings.HasPrefix(t, "<"+name) && (len(t) == len(name)+1 || strings.ContainsAny(t[len(name)+1:len(name)+2], " \t>")) {
				tag = name
				break
			}
		}
		if tag == "" {
			continue
		}
		b := componentBlock{open: i, close: len(lines) - 1, tag: tag, opening: t}
		for j := i; j < len(lines); j++ {
			if k := strings.Index(lines[j], "</"+tag); k >= 0 && (j > i || k > strings.Index(lines[j], "<"+tag)) {
				b.close = j
				break
			}
		}
		out = append(out, b)
		i = b.close
	}
	return out
}
