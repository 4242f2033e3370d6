package main

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"time"
)

// logger writes JSON lines. Each line is written with a single write call
// on a file opened with O_APPEND, so processes sharing one log file do not
// interleave partial lines.
type logger struct {
	mu  sync.Mutex
	f   *os.File
	pid int
}

// field is one key/value of a log line; fields keep their order.
type field struct {
	key   string
	value any
}

func kv(key string, value any) field { return field{key, value} }

func openLog(path string) (*logger, error) {
	l := &logger{pid: os.Getpid()}
	if path == "" {
		return l, nil
	}
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	l.f = file
	return l, nil
}

// event appends one line {"pid":N,"event":name,"time":...,fields...}.
// Fields whose value is nil or an empty json.RawMessage are omitted.
func (l *logger) event(name string, fields ...field) {
	if l == nil || l.f == nil {
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"pid":`)
	pid, _ := json.Marshal(l.pid)
	b.Write(pid)
	b.WriteString(`,"event":`)
	ev, _ := json.Marshal(name)
	b.Write(ev)
	b.WriteString(`,"time":`)
	ts, _ := json.Marshal(time.Now().UTC().Format(time.RFC3339Nano))
	b.Write(ts)
	for _, fl := range fields {
		if fl.value == nil {
			continue
		}
		if raw, ok := fl.value.(json.RawMessage); ok && len(raw) == 0 {
			continue
		}
		v, err := json.Marshal(fl.value)
		if err != nil {
			v, _ = json.Marshal("unencodable: " + err.Error())
		}
		k, _ := json.Marshal(fl.key)
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString("}\n")
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.f.Write(b.Bytes())
}
