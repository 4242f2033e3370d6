package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestSDKLoggerDemotesSessionEnds(t *testing.T) {
	for _, tc := range []struct {
		level   slog.Level
		msg     string
		printed bool // at the warn level the shim logs by default
	}{
		{slog.LevelError, "server session ended with error", false},
		{slog.LevelError, "server run cancelled", false},
		{slog.LevelError, "server connect failed", true},
		{slog.LevelWarn, "something else", true},
		{slog.LevelInfo, "server session ended with error", false},
	} {
		var buf bytes.Buffer
		log := sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})).With("session", 1))
		log.Log(t.Context(), tc.level, tc.msg, "error", "connection reset by peer")
		if got := strings.Contains(buf.String(), tc.msg); got != tc.printed {
			t.Errorf("%v %q: printed %v, want %v: %s", tc.level, tc.msg, got, tc.printed, buf.String())
		}
		if tc.printed && !strings.Contains(buf.String(), "session=1") {
			t.Errorf("%q lost its attributes: %s", tc.msg, buf.String())
		}
	}
	var buf bytes.Buffer
	sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))).Error("server run cancelled")
	if !strings.Contains(buf.String(), "level=INFO msg=\"server run cancelled\"") {
		t.Errorf("at info level: %s", buf.String())
	}
}
