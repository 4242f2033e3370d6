package toolbox

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/expiring"
)

// The cursors of cut answers, held for pageTTL and at most maxPages
// (pages.go answers them).

const (
	pageTTL  = 10 * time.Minute
	maxPages = 64
)

// pageState is what a cursor names.
type pageState struct {
	call       lspseam.CodeCall // the question, Cursor ""
	offset     int              // the first location of the next page
	resultKey  string
	targetText [sha256.Size]byte
	// spent marks a cursor that has given its page: kept (until it
	// expires) only to tell a second use from an unknown cursor.
	spent bool
}

// pageStore holds a Toolbox's open cursors.
type pageStore struct{ store *expiring.Store[*pageState] }

func newPageStore() pageStore { return pageStore{expiring.New[*pageState](pageTTL, maxPages)} }

// open holds the rest of call's answer from offset and returns its cursor.
func (p pageStore) open(call lspseam.CodeCall, offset int, resultKey, targetText string) string {
	call.Cursor = ""
	var b [8]byte
	rand.Read(b[:])
	id := "c-" + hex.EncodeToString(b[:])
	p.store.Put(id, &pageState{call: call, offset: offset, resultKey: resultKey, targetText: sha256.Sum256([]byte(targetText))})
	return id
}

// same reports whether a page was made from the answer the cursor names.
func (ps *pageState) same(resultKey, targetText string) bool {
	return ps.resultKey == resultKey && ps.targetText == sha256.Sum256([]byte(targetText))
}
