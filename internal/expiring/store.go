// Package expiring keeps values by id for a limited time and in a limited
// number: what a tool hands out now and takes back on a later call (a
// change's preview, an approval asked of the user). It owns nothing but
// the values it is given, and never starts a goroutine: expired entries
// are dropped when a value is put.
package expiring

import (
	"sync"
	"time"
)

// Store holds values of type V by id. Each value lives ttl from its Put
// and can be taken once. When max values are held, a Put first drops the
// one expiring soonest, so a caller that never comes back costs a bounded
// amount of memory.
//
// A Store is safe for concurrent use. Create one with New; it must not be
// copied after first use.
type Store[V any] struct {
	ttl time.Duration
	max int
	now func() time.Time // time.Now; replaced in tests

	mu   sync.Mutex
	byID map[string]entry[V]
}

type entry[V any] struct {
	value   V
	expires time.Time
}

// New returns an empty Store whose values live ttl and of which at most
// limit (at least 1) are held.
func New[V any](ttl time.Duration, limit int) *Store[V] {
	return &Store[V]{ttl: ttl, max: max(limit, 1), now: time.Now, byID: map[string]entry[V]{}}
}

// Put holds v under id (replacing what id held) for the Store's ttl.
func (s *Store[V]) Put(id string, v V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, e := range s.byID {
		if now.After(e.expires) {
			delete(s.byID, k)
		}
	}
	delete(s.byID, id)
	for len(s.byID) >= s.max {
		first := ""
		for k, e := range s.byID {
			if first == "" || e.expires.Before(s.byID[first].expires) {
				first = k
			}
		}
		delete(s.byID, first)
	}
	s.byID[id] = entry[V]{value: v, expires: now.Add(s.ttl)}
}

// Take removes and returns the value of id if it has not expired and
// match (when not nil) accepts it. A value match refuses stays, for the
// call it belongs to; an expired one is dropped.
func (s *Store[V]) Take(id string, match func(V) bool) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var zero V
	e, ok := s.byID[id]
	switch {
	case !ok:
		return zero, false
	case s.now().After(e.expires):
		delete(s.byID, id)
		return zero, false
	case match != nil && !match(e.value):
		return zero, false
	}
	delete(s.byID, id)
	return e.value, true
}

// Len reports how many values are held, expired ones included until the
// next Put.
func (s *Store[V]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}
