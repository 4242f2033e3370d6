package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/lspseam/lspseam/core"
)

// terraform-ls searches what it has decoded, and it decodes less than the
// workspace (terraform-ls 0.39.0's modules feature: its walker only
// discovers module directories; a module's uses are decoded on a didOpen
// of one of its files, or for the modules an opened one calls):
//
//   - a module none of whose files was opened has no uses at all in its
//     index. Measured (the explore-cfg tf2 workspace): references of the
//     vpc module's cidr_block answered "No locations found" until main.tf,
//     whose module "vpc" block sets it, had been opened, then main.tf:12.
//     So before a search a file of each module directory of the root that
//     the server holds no file of is opened, and its decoding awaited (the
//     documentSymbol handler waits for the directory's pending jobs).
//   - a resource's or data source's arguments are decoded only with the
//     provider's schema, which comes from a terraform-ls build that embeds
//     schemas (the release binaries; one built from source has none) or
//     from `terraform providers schema` in an initialized root. Without it
//     var.cidr_block in `input = { cidr = var.cidr_block }` is no use of
//     the variable (definition from it: "no reference origin found"), and
//     code_delete deleted two variables still used there. Opening the
//     files changes nothing here, so lspseam asks the server, for each
//     kind of block (resource "T", data "T") with a reference in its
//     arguments, whether it knows one such reference (a definition from
//     it), and says which kinds' uses it does not search.

const (
	// maxSearchModules bounds the module directories opened for a search.
	maxSearchModules = 32
	// maxProbedKinds bounds the block kinds asked about per search.
	maxProbedKinds = 8
	// maxScannedModuleFiles bounds the .tf files read for block uses.
	maxScannedModuleFiles = 200
)

// prepareModuleSearch readies a search by a server with ModuleSearch and
// returns the answer's incomplete notice ("" when its search covers the
// root's modules as far as lspseam can tell).
func (in *instance) prepareModuleSearch(ctx context.Context) string {
	if in.neg.Readiness.ModuleSearch != core.ModuleSearchTerraform {
		return ""
	}
	files := in.scopeWalks.files(ctx, in.root.Path, "terraform modules", func(p string) bool {
		return strings.EqualFold(filepath.Ext(p), ".tf")
	})
	byDir := map[string][]string{}
	var dirs []string
	for _, f := range files {
		d := filepath.Dir(f)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], f)
	}
	sort.Strings(dirs)
	held := map[string]bool{}
	for _, p := range in.docs.paths() {
		held[filepath.Dir(p)] = true
	}
	limit := min(maxSearchModules, max(1, in.docs.max/2))
	var opened []Source
	var unopened []string
	for _, d := range dirs {
		if held[d] {
			continue
		}
		if len(opened) >= limit {
			unopened = append(unopened, d)
			continue
		}
		src, err := in.openForSearch(ctx, byDir[d][0])
		if err != nil {
			unopened = append(unopened, d)
			continue
		}
		opened = append(opened, src)
	}
	for _, src := range opened {
		params, _ := json.Marshal(map[string]any{"textDocument": map[string]string{"uri": src.URI}})
		var raw json.RawMessage
		if err := in.call(ctx, "textDocument/documentSymbol", json.RawMessage(params), &raw); err != nil {
			in.log.Debug("a module's decoding was not awaited", "path", src.Path, "err", err)
		}
	}
	var notices []string
	if len(unopened) > 0 {
		notices = append(notices, fmt.Sprintf("%d module %s of the root (such as %s) had no file open in language server %q, which searches only the modules it has decoded, so uses there may be missing; ask again after opening one of their files (code_symbols)", len(unopened), plural(len(unopened), "directory", "directories"), in.wsRel(unopened[0]), in.server.ID))
	}
	if n := in.unsearchedArguments(ctx, files); n != "" {
		notices = append(notices, n)
	}
	return strings.Join(notices, "; ")
}

// openForSearch opens path in the server (as a tool's file is opened).
func (in *instance) openForSearch(ctx context.Context, path string) (Source, error) {
	src, err := ReadSource(in.ws, path, in.server.Config.MaxDocumentBytes)
	if err != nil {
		return Source{}, err
	}
	lang, _ := in.server.Config.LanguageOf(src.Path)
	if lang == "" {
		lang = "terraform"
	}
	return src, in.ensureOpen(ctx, src, lang)
}

// unsearchedArguments asks the server, for each kind of block with a
// reference in its arguments among files, whether it knows one such
// reference, and is the notice naming the kinds whose arguments it does
// not search ("" when it searches them all, or none has one).
func (in *instance) unsearchedArguments(ctx context.Context, files []string) string {
	kinds := map[string][]argumentUse{} // by kind, in file order
	var order []string
	for i, f := range files {
		if i >= maxScannedModuleFiles || ctx.Err() != nil {
			break
		}
		src, err := ReadSource(in.ws, f, in.server.Config.MaxDocumentBytes)
		if err != nil {
			continue
		}
		for _, u := range argumentUses(src.Text) {
			u.path = f
			if kinds[u.kind] == nil {
				order = append(order, u.kind)
			}
			kinds[u.kind] = append(kinds[u.kind], u)
		}
	}
	var unsearched []string
	blocks := 0
	var example argumentUse
	for i, k := range order {
		if i >= maxProbedKinds || ctx.Err() != nil {
			break
		}
		u := kinds[k][0]
		if in.knowsUse(ctx, u) {
			continue
		}
		if len(unsearched) == 0 {
			example = u
		}
		unsearched = append(unsearched, k)
		blocks += distinctBlocks(kinds[k])
	}
	if len(unsearched) == 0 {
		return ""
	}
	return fmt.Sprintf("language server %q does not search the arguments of %s (%d %s with a reference there; it did not know %s at %s:%d as a use): it reads a resource's or data source's arguments only with the provider's schema, so uses there are missing; run terraform init with the terraform CLI on PATH (the server then asks it for the schemas), or use a terraform-ls release build, which embeds popular providers' schemas, and ask again", in.server.ID, core.Listed(unsearched, 4), blocks, plural(blocks, "block", "blocks"), example.ref, in.wsRel(example.path), example.line+1)
}

// knowsUse says whether the server takes u as a reference: a definition
// from it answers a location (without the block's schema it answers "no
// reference origin found", or nothing).
func (in *instance) knowsUse(ctx context.Context, u argumentUse) bool {
	src, err := in.openForSearch(ctx, u.path)
	if err != nil {
		return true // not asked: not called unsearched on no evidence
	}
	params, _ := json.Marshal(map[string]any{
		"textDocument": map[string]string{"uri": src.URI},
		"position":     map[string]int{"line": u.line, "character": u.character},
	})
	var raw json.RawMessage
	if err := in.call(ctx, "textDocument/definition", json.RawMessage(params), &raw); err != nil {
		in.log.Debug("a use in a block's arguments is not known", "path", u.path, "line", u.line+1, "ref", u.ref, "err", err)
		return false
	}
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null" && s != "[]"
}

// argumentUse is a reference in a block's arguments: kind is the block's
// (`resource "aws_instance"`), block its ordinal in the file, line and
// character its zero-based start (UTF-16), ref its text.
type argumentUse struct {
	kind, path, ref string
	block           int
	line, character int
}

// distinctBlocks counts the blocks uses are in.
func distinctBlocks(uses []argumentUse) int {
	seen := map[string]bool{}
	for _, u := range uses {
		seen[u.path+"\x00"+strconv.Itoa(u.block)] = true
	}
	return len(seen)
}

var (
	blockHeader   = regexp.MustCompile(`^\s*(resource|data)\s+"([^"]+)"`)
	argumentKey   = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*[={]`)
	referenceExpr = regexp.MustCompile(`\b(var|local|module|data)\.[A-Za-z_][A-Za-z0-9_-]*`)
	// metaArguments are Terraform's own arguments of a resource or data
	// block, which terraform-ls decodes without the provider's schema.
	metaArguments = map[string]bool{"count": true, "for_each": true, "depends_on": true, "provider": true, "lifecycle": true}
)

// argumentUses are the references (var., local., module., data.) in the
// arguments of text's resource and data blocks, not in their
// meta-arguments: a line scan that tracks braces outside strings and
// comments (not heredocs), enough to find one reference per block kind.
func argumentUses(text string) []argumentUse {
	var out []argumentUse
	depth, blocks := 0, 0
	kind, pending, key := "", "", ""
	inComment := false
	for n, line := range strings.Split(text, "\n") {
		code, opens, closes, comment := hclCode(line, inComment)
		inComment = comment
		if depth == 0 {
			if m := blockHeader.FindStringSubmatch(code); m != nil {
				pending = m[1] + ` "` + m[2] + `"`
			} else if strings.TrimSpace(code) != "" && opens > 0 {
				pending = ""
			}
		}
		if depth == 1 {
			if m := argumentKey.FindStringSubmatch(code); m != nil {
				key = m[1]
			}
		}
		if depth >= 1 && kind != "" && !metaArguments[key] {
			for _, loc := range referenceExpr.FindAllStringIndex(code, -1) {
				out = append(out, argumentUse{kind: kind, ref: code[loc[0]:loc[1]], block: blocks, line: n, character: utf16Len(code[:loc[0]]) + 1})
			}
		}
		if depth == 0 && opens > closes {
			kind, key = pending, ""
			blocks++
		}
		depth += opens - closes
		if depth <= 0 {
			depth, kind, key = 0, "", ""
		}
	}
	return out
}

// hclCode is line with its comments blanked (offsets kept), its braces
// outside strings counted, and whether a /* comment is still open after it.
func hclCode(line string, inComment bool) (code string, opens, closes int, comment bool) {
	b := []byte(line)
	inString := false
	for i := 0; i < len(b); i++ {
		switch {
		case inComment:
			if b[i] == '*' && i+1 < len(b) && b[i+1] == '/' {
				b[i], b[i+1] = ' ', ' '
				i++
				inComment = false
			} else {
				b[i] = ' '
			}
		case inString:
			if b[i] == '\\' {
				i++
			} else if b[i] == '"' {
				inString = false
			}
		case b[i] == '"':
			inString = true
		case b[i] == '#' || (b[i] == '/' && i+1 < len(b) && b[i+1] == '/'):
			return string(b[:i]), opens, closes, false
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			b[i], b[i+1] = ' ', ' '
			i++
			inComment = true
		case b[i] == '{':
			opens++
		case b[i] == '}':
			closes++
		}
	}
	return string(b), opens, closes, inComment
}

// utf16Len is s's length in UTF-16 code units (LSP's default columns).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}
