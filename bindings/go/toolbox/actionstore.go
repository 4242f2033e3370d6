package toolbox

import (
	"encoding/json"
	"sync"
)

// code_actions' last listings: the actions a listing gave, by actionId,
// so a later call applies exactly what was listed.

// listedAction is an action as the server gave it, bound to a file's
// content.
type listedAction struct {
	id      string
	uri     string
	version string // workspacefs.ContentVersion of the file when listed
	title   string
	raw     json.RawMessage
	// asked is the codeAction request whose answer gave raw: a server
	// that resolves only the actions of its latest answer
	// (typescript-language-server) is asked it again before resolving.
	asked json.RawMessage
}

// actionStore keeps the last listing's actions per file (a session's).
type actionStore struct {
	mu   sync.Mutex
	byID map[string]listedAction
}

func (s *actionStore) put(list []listedAction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID == nil || len(s.byID) > 1000 {
		s.byID = map[string]listedAction{}
	}
	for _, a := range list {
		s.byID[a.id] = a
	}
}

func (s *actionStore) get(id string) (listedAction, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.byID[id]
	return a, ok
}
