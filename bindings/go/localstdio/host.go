package localstdio

import (
	"context"
	"errors"
	"log/slog"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Host is a loaded server table registered in a Service: one Provider per
// server. It is what cmd/shim runs and what a Go harness embeds to get the
// same behaviour.
type Host struct {
	Service   *lspseam.Service
	Providers []*Provider
	Config    lspseam.Config
	disposers []func()
	watchers  *watcherSet // one watcher per workspace, shared by the providers
}

// Start registers one provider per server in service. Registration is all
// or nothing: if any server cannot be registered, none is, and the error
// is returned.
func Start(ctx context.Context, core *lspseam.Core, service *lspseam.Service, servers []Server, cfg lspseam.Config, log *slog.Logger) (*Host, error) {
	return start(ctx, core, service, servers, cfg, log, nil)
}

// start is Start with more registrations beside the servers' (StartTable's
// missing servers), all registered in one call.
func start(ctx context.Context, core *lspseam.Core, service *lspseam.Service, servers []Server, cfg lspseam.Config, log *slog.Logger, more []lspseam.Registration) (*Host, error) {
	h := &Host{Service: service, Config: cfg, watchers: newWatcherSet(log)}
	regs := make([]lspseam.Registration, 0, len(servers)+len(more))
	for _, s := range servers {
		p := NewProvider(core, s, WithLogger(log), withWatchers(h.watchers))
		h.Providers = append(h.Providers, p)
		regs = append(regs, p.Registration())
	}
	dispose, err := service.RegisterProviders(ctx, append(regs, more...)...)
	if err != nil {
		h.Close(ctx)
		return nil, err
	}
	h.disposers = append(h.disposers, dispose)
	return h, nil
}

// Close unregisters every provider and shuts its servers down, waiting
// until every process has exited.
func (h *Host) Close(ctx context.Context) error {
	for _, d := range h.disposers {
		d()
	}
	errs := make([]error, len(h.Providers))
	done := make(chan struct{})
	for i, p := range h.Providers {
		go func(i int, p *Provider) {
			errs[i] = p.Close(ctx)
			done <- struct{}{}
		}(i, p)
	}
	for range h.Providers {
		<-done
	}
	h.watchers.wait()
	return errors.Join(errs...)
}
