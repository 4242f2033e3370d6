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
	// registered are the ids this host registered (its servers' and
	// StartTable's missing ones); Close retires them.
	registered []string
	watchers   *watcherSet // one watcher per workspace, shared by the providers
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
	for _, reg := range append(regs, more...) {
		h.registered = append(h.registered, reg.ID)
	}
	return h, nil
}

// Close unregisters every provider and shuts its servers down, waiting
// until every process has exited. Queries already running answer
// LSP_DISPOSED, and so do later queries for the files its servers owned
// (Service.RetireProviders), until another host registers servers for
// them: a harness that uses its tools after closing their host is told
// so, not that no language server is configured.
func (h *Host) Close(ctx context.Context) error {
	if h.Service != nil && len(h.registered) > 0 {
		h.Service.RetireProviders(h.registered, "its localstdio Host was closed; start a new one to query these files")
	}
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
