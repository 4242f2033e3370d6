package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// Script is the JSON document that tells the fake server how to behave.
// Unknown fields are rejected so that a typo in a test script fails loudly.
type Script struct {
	// Capabilities is returned verbatim as InitializeResult.capabilities.
	Capabilities json.RawMessage `json:"capabilities"`
	// ServerInfo, when set, replaces InitializeResult.serverInfo
	// ({"name":"fakelsp","version":"0.1.0"}), so a test can have the fake
	// answer as a server lspseam's table knows.
	ServerInfo json.RawMessage `json:"serverInfo"`
	// Initialize scripts the answer to the initialize request. When its
	// action is reply and it has no result, the generated InitializeResult
	// is sent.
	Initialize *Action `json:"initialize"`
	// Methods scripts requests and notifications by method name.
	Methods map[string]*Action `json:"methods"`
	// OnDidOpen runs synchronously in the reading loop for every didOpen.
	OnDidOpen *Action `json:"onDidOpen"`
	// IgnoreCancel: $/cancelRequest never interrupts a scripted request.
	IgnoreCancel bool `json:"ignoreCancel"`
	// IgnoreShutdown: shutdown is never answered, exit and stdin EOF are
	// ignored.
	IgnoreShutdown bool `json:"ignoreShutdown"`
	// IgnoreSigterm: SIGTERM is logged and ignored.
	IgnoreSigterm bool `json:"ignoreSigterm"`
	// StderrAtStart bytes of filler are written to stderr at startup.
	StderrAtStart int64 `json:"stderrAtStart"`
	// PositionEncoding, when not null, is placed at
	// capabilities.positionEncoding.
	PositionEncoding *string `json:"positionEncoding"`
}

// Action is what the server does for one scripted method.
type Action struct {
	Action      string            `json:"action"`
	Result      json.RawMessage   `json:"result"`
	Results     []json.RawMessage `json:"results"`
	Code        *int              `json:"code"`
	Message     string            `json:"message"`
	Data        json.RawMessage   `json:"data"`
	ExitCode    *int              `json:"exitCode"`
	Stderr      string            `json:"stderr"`
	DelayMs     int64             `json:"delayMs"`
	Before      []Step            `json:"before"`
	After       []Step            `json:"after"`
	StderrBytes int64             `json:"stderrBytes"`
	Size        int64             `json:"size"`
	Raw         *string           `json:"raw"`
}

// Step is one thing the server does before (or after) acting on a message.
type Step struct {
	ServerRequest    string          `json:"serverRequest"`
	Notification     string          `json:"notification"`
	Params           json.RawMessage `json:"params"`
	WorkDoneProgress string          `json:"workDoneProgress"`
	Token            json.RawMessage `json:"token"`
	Title            string          `json:"title"`
	Message          string          `json:"message"`
	Percentage       *int            `json:"percentage"`
	SleepMs          int64           `json:"sleepMs"`
	// WaitFile waits until this path exists: a test holds a request for
	// as long as it needs, with no clock involved.
	WaitFile string `json:"waitFile"`
}

var knownActions = map[string]bool{
	"": true, "reply": true, "none": true, "error": true, "hang": true,
	"crash": true, "exit": true, "garbage": true, "truncated": true,
	"oversized": true, "invalidJSON": true, "stopReading": true,
}

const defaultOversizedBytes = 20_000_000

var defaultCapabilities = json.RawMessage(`{"textDocumentSync":1,"definitionProvider":true,"referencesProvider":true,"implementationProvider":true,"hoverProvider":true}`)

// loadScript reads and validates the script at path; an empty path yields
// the default script.
func loadScript(path string) (*Script, error) {
	sc := &Script{}
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(sc); err != nil {
			return nil, fmt.Errorf("script %s: %w", path, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("script %s: trailing data after the JSON object", path)
		}
	}
	if len(sc.Capabilities) == 0 || string(sc.Capabilities) == "null" {
		sc.Capabilities = defaultCapabilities
	}
	if sc.PositionEncoding != nil {
		var caps map[string]json.RawMessage
		if err := json.Unmarshal(sc.Capabilities, &caps); err != nil || caps == nil {
			return nil, errors.New("script: positionEncoding needs capabilities to be an object")
		}
		enc, _ := json.Marshal(*sc.PositionEncoding)
		caps["positionEncoding"] = enc
		sc.Capabilities, _ = json.Marshal(caps)
	}
	if err := sc.Initialize.validate("initialize", true); err != nil {
		return nil, err
	}
	for m, a := range sc.Methods {
		if a == nil {
			return nil, fmt.Errorf("script: methods[%q] is null", m)
		}
		if err := a.validate("methods["+m+"]", true); err != nil {
			return nil, err
		}
	}
	if err := sc.OnDidOpen.validate("onDidOpen", false); err != nil {
		return nil, err
	}
	return sc, nil
}

func (a *Action) validate(where string, stepsAllowed bool) error {
	if a == nil {
		return nil
	}
	if !knownActions[a.Action] {
		return fmt.Errorf("script: %s: unknown action %q", where, a.Action)
	}
	if len(a.Result) > 0 && len(a.Results) > 0 {
		return fmt.Errorf("script: %s: result and results are exclusive", where)
	}
	if a.DelayMs < 0 || a.StderrBytes < 0 || a.Size < 0 {
		return fmt.Errorf("script: %s: delayMs, stderrBytes and size must not be negative", where)
	}
	if !stepsAllowed && (len(a.Before) > 0 || len(a.After) > 0) {
		return fmt.Errorf("script: %s: before/after steps are not supported here (it runs in the reading loop)", where)
	}
	for i, st := range append(append([]Step(nil), a.Before...), a.After...) {
		n := 0
		for _, set := range []bool{st.ServerRequest != "", st.Notification != "", st.WorkDoneProgress != "", st.SleepMs > 0, st.WaitFile != ""} {
			if set {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("script: %s: step %d must have exactly one of serverRequest, notification, workDoneProgress, sleepMs, waitFile", where, i)
		}
		switch st.WorkDoneProgress {
		case "", "begin", "report", "end":
		default:
			return fmt.Errorf("script: %s: step %d: workDoneProgress must be begin, report or end", where, i)
		}
	}
	return nil
}

// hasWaits reports whether running the action waits: for responses from
// the client (so it cannot run inside the reading loop) or for time (so
// running it there would stop the server reading meanwhile).
func (a *Action) hasWaits() bool {
	if a.DelayMs > 0 {
		return true
	}
	for _, st := range append(append([]Step(nil), a.Before...), a.After...) {
		if st.ServerRequest != "" || st.WorkDoneProgress == "begin" || st.SleepMs > 0 || st.WaitFile != "" {
			return true
		}
	}
	return false
}
