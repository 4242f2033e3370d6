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

// TestSizedStore: a Store made with NewSized (a value's size is its
// length here; at most 10 bytes and 3 values) drops the values expiring
// soonest until a new one fits, and its sum follows every Put, Take and
// drop.
func TestSizedStore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps func(s *Store[string], c *clock)
		held  []string // the ids still held, by Take
		bytes int64    // the sum before those Takes
	}{
		{"within the bound all are held", func(s *Store[string], c *clock) {
			s.Put("a", "xxx")
			s.Put("b", "xxxx")
		}, []string{"a", "b"}, 7},
		{"over the bound the oldest go", func(s *Store[string], c *clock) {
			for _, id := range []string{"a", "b", "c"} {
				s.Put(id, "xxxx")
				c.t = c.t.Add(time.Second)
			}
		}, []string{"b", "c"}, 8},
		{"as many go as the new value needs", func(s *Store[string], c *clock) {
			for _, id := range []string{"a", "b", "c"} {
				s.Put(id, "xx")
				c.t = c.t.Add(time.Second)
			}
			s.Put("d", "xxxxxxx")
		}, []string{"c", "d"}, 9},
		{"a value over the bound is held alone", func(s *Store[string], c *clock) {
			s.Put("a", "x")
			c.t = c.t.Add(time.Second)
			s.Put("b", "xxxxxxxxxxxx")
		}, []string{"b"}, 12},
		{"the count bound still holds", func(s *Store[string], c *clock) {
			for _, id := range []string{"a", "b", "c", "d"} {
				s.Put(id, "x")
				c.t = c.t.Add(time.Second)
			}
		}, []string{"b", "c", "d"}, 3},
		{"take frees its size", func(s *Store[string], c *clock) {
			s.Put("a", "xxxxxx")
			s.Take("a", nil)
			s.Put("b", "xxxxxx")
		}, []string{"b"}, 6},
		{"a refused take keeps its size", func(s *Store[string], c *clock) {
			s.Put("a", "xxxxxx")
			s.Take("a", func(string) bool { return false })
		}, []string{"a"}, 6},
		{"replacing an id replaces its size", func(s *Store[string], c *clock) {
			s.Put("a", "xxxxxx")
			s.Put("a", "xxxxxxxx")
		}, []string{"a"}, 8},
		{"expired values are dropped first", func(s *Store[string], c *clock) {
			s.Put("a", "xxxxxx")
			c.t = c.t.Add(time.Second)
			s.Put("b", "xx")
			c.t = c.t.Add(time.Minute)
			s.Put("c", "xxxxxx")
		}, []string{"b", "c"}, 8},
		{"an expired take frees its size", func(s *Store[string], c *clock) {
			s.Put("a", "xxxxxx")
			c.t = c.t.Add(2 * time.Minute)
			s.Take("a", nil)
		}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
			s := NewSized[string](time.Minute, 3, 10, func(v string) int64 { return int64(len(v)) })
			s.now = c.now
			tc.steps(s, c)
			if got := s.Bytes(); got != tc.bytes {
				t.Errorf("Bytes() = %d, want %d", got, tc.bytes)
			}
			if n := s.Len(); n != len(tc.held) {
				t.Errorf("%d values held, want %d (%v)", n, len(tc.held), tc.held)
			}
			for _, id := range tc.held {
				if _, ok := s.Take(id, nil); !ok {
					t.Errorf("%s is not held", id)
				}
			}
			if got := s.Bytes(); got != 0 {
				t.Errorf("Bytes() = %d after taking every value, want 0", got)
			}
		})
	}
}
