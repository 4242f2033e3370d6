package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Loading a server table: the core validates it and fills defaults; this
// file resolves each command to an executable in the server's own
// environment (the allowlist, passEnv, env), once, at load time.

// Server is one validated server of the table, ready to run.
type Server struct {
	ID     string
	Config lspseam.ServerConfig
	Path   string   // the resolved executable
	Env    []string // the environment it runs with
}

// Load validates a configuration (JSON) with the core, resolves every
// server's executable, and returns the servers sorted by id and the
// validated config. Any bad entry fails the whole load: nothing is
// returned for the others, so a caller never registers half a table.
func Load(ctx context.Context, core *lspseam.Core, configJSON []byte, hostEnv []string) ([]Server, lspseam.Config, error) {
	cfg, err := core.ValidateConfig(ctx, configJSON)
	if err != nil {
		return nil, lspseam.Config{}, err
	}
	ids := make([]string, 0, len(cfg.Servers))
	for id := range cfg.Servers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var servers []Server
	var problems []string
	for _, id := range ids {
		sc := cfg.Servers[id]
		env := ServerEnv(hostEnv, sc.PassEnv, sc.Env)
		path, problem := ResolveExecutable(sc.Command, env)
		if problem != "" {
			problems = append(problems, "servers."+id+".command: "+problem)
			continue
		}
		servers = append(servers, Server{ID: id, Config: sc, Path: path, Env: env})
	}
	if len(problems) > 0 {
		return nil, lspseam.Config{}, lspseam.Errorf(lspseam.CodeConfigInvalid, "invalid lspseam config: %s", strings.Join(problems, "; "))
	}
	return servers, cfg, nil
}

// ResolveExecutable finds command the way a shell would, without using
// one: a name with a slash is a path (relative to the current directory),
// a bare name is searched in the PATH of env. problem says what is wrong.
func ResolveExecutable(command string, env []string) (path string, problem string) {
	if strings.Contains(command, "/") {
		abs, err := filepath.Abs(command)
		if err != nil {
			return "", err.Error()
		}
		if !isExecutable(abs) {
			return "", command + " is not an executable file"
		}
		return abs, ""
	}
	pathVar := lookupEnv(env, "PATH")
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // relative PATH entries depend on the cwd; never use them
		}
		candidate := filepath.Join(dir, command)
		if isExecutable(candidate) {
			return candidate, ""
		}
	}
	return "", command + " was not found on the server's PATH (" + clip(pathVar, 300) + "); install it or give an absolute command path"
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
