package core

import "github.com/tidwall/gjson"

// translateRender: translate and render in one ABI call, for the lsp tool's
// query path. A call into the module is cheap when warm (17–35 µs) but
// costs 250–350 µs after a pause of a few milliseconds (a language server's
// answer is such a pause), and translate and render were two such calls
// back to back for every answer. The host hands over what it would have
// set on the translated result between the two calls (the workspace, the
// subject, the incomplete notice), and gets back both the result (what a
// provider's Query returns) and its text (what render would answer for
// it), byte for byte the same as the two calls give.

// TranslatedRendered is translateRender's answer.
type TranslatedRendered struct {
	Result   Result   `json:"result"`
	Rendered Rendered `json:"rendered"`
}

func (t TranslatedRendered) appendJSON(b []byte) []byte {
	b = append(b, `{"result":`...)
	b = t.Result.appendJSON(b)
	b = append(b, `,"rendered":`...)
	b = t.Rendered.appendJSON(b)
	return append(b, '}')
}

// TranslateRender translates a server's result for op, sets what a
// provider sets on it (a locations result's WorkspaceURI is workspaceURI;
// Subject and Incomplete as given) and renders it for workspaceURI within
// limits. Its errors are Translate's, then Render's.
func TranslateRender(op Operation, result gjson.Result, workspaceURI, subject, incomplete string, limits Limits) (TranslatedRendered, *Error) {
	r, err := Translate(op, result)
	if err != nil {
		return TranslatedRendered{}, err
	}
	if r.Kind == KindLocations {
		r.WorkspaceURI = workspaceURI
	}
	r.Subject, r.Incomplete = subject, incomplete
	out, err := Render(r, workspaceURI, limits)
	if err != nil {
		return TranslatedRendered{}, err
	}
	return TranslatedRendered{Result: r, Rendered: out}, nil
}

// translateRenderCall reads {operation, result, workspaceUri, subject?,
// incomplete?, maxLocations?, maxResultChars?} in one pass over the
// members (a get after a large result would walk it again).
func translateRenderCall(in gjson.Result) (jsonAppender, *Error) {
	names := [...]string{"operation", "result", "workspaceUri", "subject", "incomplete", "maxLocations", "maxResultChars"}
	var f [len(names)]gjson.Result
	in.ForEach(func(k, v gjson.Result) bool {
		for i, name := range names {
			if k.Str == name && !f[i].Exists() {
				f[i] = v
			}
		}
		return true
	})
	op, err := decodeOperation(f[0])
	if err != nil {
		return nil, err
	}
	ws := f[2]
	if ws.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "workspaceUri must be a string, got %s", describe(ws))
	}
	var text [2]string
	for i, name := range [...]string{"subject", "incomplete"} {
		v := f[3+i]
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		if v.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "%s must be a string, got %s", name, describe(v))
		}
		text[i] = v.Str
	}
	limits, err := renderLimits(f[5], f[6])
	if err != nil {
		return nil, err
	}
	return wrap(TranslateRender(op, f[1], ws.Str, text[0], text[1], limits))
}
