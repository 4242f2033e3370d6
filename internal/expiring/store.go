// Package expiring keeps values by id for a limited time, in a limited
// number and, optionally, a limited sum of sizes: what a tool hands out
// now and takes back on a later call (a change's preview, an approval
// asked of the user). It owns nothing but the values it is given, and
// never starts a goroutine: expired entries are dropped when a value is
// put.
package expiring

import (
	"sync"
	"time"
)

// Store holds values of type V by id. Each value lives ttl from its Put
// and can be taken once. When max values are held, a Put first drops the
// one expiring soonest, so a caller that never comes back costs a bounded
// amount of memory. A Store made with NewSized also bounds the sum of its
// values' sizes: a Put drops the values expiring soonest until the new
// one fits, because a count alone bounds nothing when one value can be
// megabytes (a preview of a large file).
//
// A Store is safe for concurrent use. Create one with New or NewSized; it
// must not be copied after first use.
type Store[V any] struct {
	ttl      time.Duration
	max      int
	maxBytes int64            // 0: no bound on sizes
	size     func(V) int64    // a value's size; nil without maxBytes
	now      func() time.Time // time.Now; replaced in tests

	mu    sync.Mutex
	byID  map[string]entry[V]
	bytes int64 // the sum of the held values' sizes
}

type entry[V any] struct {
	value   V
	size    int64
	expires time.Time
}

// New returns an empty Store whose values live ttl and of which at most
// limit (at least 1) are held.
func New[V any](ttl time.Duration, limit int) *Store[V] {
	return &Store[V]{ttl: ttl, max: max(limit, 1), now: time.Now, byID: map[string]entry[V]{}}
}

// NewSized is New with a bound on the sum of the held values' sizes, as
// size measures them (called once per Put): a Put drops the values
// expiring soonest until the new one fits within maxBytes (at least 1). A
// value larger than maxBytes on its own is held alone: refusing it would
// fail the call that made it, and it is already in memory.
func NewSized[V any](ttl time.Duration, limit int, maxBytes int64, size func(V) int64) *Store[V] {
	s := New[V](ttl, limit)
	s.maxBytes, s.size = max(maxBytes, 1), size
	return s
}

// Put holds v under id (replacing what id held) for the Store's ttl.
func (s *Store[V]) Put(id string, v V) {
	var size int64
	if s.size != nil {
		size = s.size(v)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, e := range s.byID {
		if now.After(e.expires) {
			s.drop(k)
		}
	}
	s.drop(id)
	for len(s.byID) > 0 && (len(s.byID) >= s.max || s.maxBytes > 0 && s.bytes+size > s.maxBytes) {
		first := ""
		for k, e := range s.byID {
			if first == "" || e.expires.Before(s.byID[first].expires) {
				first = k
			}
		}
		s.drop(first)
	}
	s.byID[id] = entry[V]{value: v, size: size, expires: now.Add(s.ttl)}
	s.bytes += size
}

// drop removes id's value, if any, and its size from the sum. The caller
// holds s.mu.
func (s *Store[V]) drop(id string) {
	if e, ok := s.byID[id]; ok {
		delete(s.byID, id)
		s.bytes -= e.size
	}
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
		s.drop(id)
		return zero, false
	case match != nil && !match(e.value):
		return zero, false
	}
	s.drop(id)
	return e.value, true
}

// Len reports how many values are held, expired ones included until the
// next Put.
func (s *Store[V]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}

// Bytes reports the sum of the held values' sizes (0 for a Store made
// with New), expired ones included until the next Put.
func (s *Store[V]) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}
