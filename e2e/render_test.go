package e2e

import (
	"context"
	"encoding/json"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

var (
	coreOnce sync.Once
	theCore  *lspseam.Core
	coreErr  error
)

// renderResult renders a seam result with the embedded core.
func renderResult(raw json.RawMessage, ws string) (string, error) {
	coreOnce.Do(func() { theCore, coreErr = lspseam.NewCore(context.Background()) })
	if coreErr != nil {
		return "", coreErr
	}
	var res lspseam.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", err
	}
	uri := res.WorkspaceURI
	if uri == "" {
		w, err := localstdio.CanonicalWorkspace(ws)
		if err != nil {
			return "", err
		}
		uri = w.URI
	}
	out, err := theCore.Render(context.Background(), res, uri, lspseam.Limits{})
	return out.Text, err
}
