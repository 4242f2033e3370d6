package localstdio

import "os"

// FindCommand looks a server's command up as LoadConfig would for a
// server without env or passEnv: on the PATH of its environment (built
// from opts.HostEnv), then in opts.SearchDirs. It is how `lspseam servers
// list` says whether a server of the table is installed without loading a
// config naming it.
func FindCommand(command string, opts LoadOptions) (path, notFound string) {
	hostEnv := opts.HostEnv
	if hostEnv == nil {
		hostEnv = os.Environ()
	}
	return resolveCommand(command, ServerEnv(hostEnv, command, nil, nil), opts.SearchDirs)
}
