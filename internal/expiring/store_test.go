package expiring

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// clock is a Store's time, moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTestStore(ttl time.Duration, limit int) (*Store[string], *clock) {
	c := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	s := New[string](ttl, limit)
	s.now = c.now
	return s, c
}

func TestStore(t *testing.T) {
	isB := func(v string) bool { return v == "b" }
	for _, tc := range []struct {
		name  string
		steps func(s *Store[string], c *clock) (string, bool)
		want  string
		ok    bool
		left  int
	}{
		{"taken once", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "a")
			s.Take("x", nil)
			return s.Take("x", nil)
		}, "", false, 0},
		{"within ttl", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "a")
			c.t = c.t.Add(time.Minute)
			return s.Take("x", nil)
		}, "a", true, 0},
		{"expired is dropped", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "a")
			c.t = c.t.Add(time.Minute + time.Nanosecond)
			return s.Take("x", nil)
		}, "", false, 0},
		{"refused by match stays", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "a")
			return s.Take("x", isB)
		}, "", false, 1},
		{"accepted by match", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "b")
			return s.Take("x", isB)
		}, "b", true, 0},
		{"put replaces", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "a")
			s.Put("x", "b")
			return s.Take("x", nil)
		}, "b", true, 0},
		{"the limit drops the one expiring first", func(s *Store[string], c *clock) (string, bool) {
			for i := 0; i < 3; i++ {
				s.Put(fmt.Sprint(i), fmt.Sprint(i))
				c.t = c.t.Add(time.Second)
			}
			if _, ok := s.Take("0", nil); ok {
				return "0 kept", true
			}
			return s.Take("1", nil)
		}, "1", true, 1},
		{"put drops the expired", func(s *Store[string], c *clock) (string, bool) {
			s.Put("x", "a")
			c.t = c.t.Add(2 * time.Minute)
			s.Put("y", "b")
			return "", false
		}, "", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newTestStore(time.Minute, 2)
			got, ok := tc.steps(s, c)
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
			if n := s.Len(); n != tc.left {
				t.Errorf("%d values left, want %d", n, tc.left)
			}
		})
	}
}

// TestStoreConcurrentTake: a value is taken by exactly one of many
// concurrent callers (run with -race).
func TestStoreConcurrentTake(t *testing.T) {
	s := New[int](time.Minute, 10)
	for round := 0; round < 50; round++ {
		s.Put("x", round)
		var wg sync.WaitGroup
		var mu sync.Mutex
		taken := 0
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, ok := s.Take("x", nil); ok {
					mu.Lock()
					taken++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if taken != 1 {
			t.Fatalf("round %d: taken %d times", round, taken)
		}
	}
}
