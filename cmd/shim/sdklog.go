package main

import (
	"context"
	"log/slog"
)

// The MCP SDK logs the end of a session at error level when it was
// cancelled (a signal, `lspseam daemon stop`) or its client went away
// without closing it (a killed agent: connection reset). For a server
// whose clients come and go, both are how sessions end: logged as errors
// they would send whoever reads the log after a fault that is not there.
// sdkLogger logs them at info level; every other record is unchanged.

// sdkSessionEnds are the SDK's messages for a session's end.
var sdkSessionEnds = map[string]bool{
	"server run cancelled":            true,
	"server session ended with error": true,
}

func sdkLogger(log *slog.Logger) *slog.Logger {
	return slog.New(sessionEndHandler{log.Handler()})
}

type sessionEndHandler struct{ slog.Handler }

func (h sessionEndHandler) Enabled(ctx context.Context, level slog.Level) bool {
	// An error record may be demoted: decide in Handle.
	return h.Handler.Enabled(ctx, level) || level == slog.LevelError
}

func (h sessionEndHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelError && sdkSessionEnds[r.Message] {
		r.Level = slog.LevelInfo
	}
	if !h.Handler.Enabled(ctx, r.Level) {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h sessionEndHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return sessionEndHandler{h.Handler.WithAttrs(attrs)}
}

func (h sessionEndHandler) WithGroup(name string) slog.Handler {
	return sessionEndHandler{h.Handler.WithGroup(name)}
}
