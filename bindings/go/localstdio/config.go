package localstdio

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// Loading a server table: the core validates it and fills defaults; this
// file resolves each command to an executable in the server's own
// environment (the allowlist, passEnv, env), then in the caller's search
// directories, once, at load time. An optional server whose executable is
// not found is set aside (Table.Missing) instead of failing the table.

// Server is one validated server of the table, ready to run.
type Server struct {
	ID     string
	Config lspseam.ServerConfig
	Path   string   // the resolved executable
	Env    []string // the environment it runs with
}

// MissingServer is an optional server whose executable was not found.
// StartTable registers it so that a query on its extensions is answered
// with LSP_UNAVAILABLE saying what is missing and how to install it.
type MissingServer struct {
	ID     string
	Config lspseam.ServerConfig
	// NotFound says what was not found and where it was looked for.
	NotFound string
	// Install says how to install it ("" when lspseam does not know the
	// command): LoadOptions.InstallAdvice, then the package that has it.
	Install string
}

// Table is a loaded server table.
type Table struct {
	// Config is the validated configuration, every default filled in.
	Config lspseam.Config
	// Servers are the servers whose executables were found, by id.
	Servers []Server
	// Missing are the optional servers whose executables were not found,
	// by id.
	Missing []MissingServer

	installAdvice string // LoadOptions.InstallAdvice, for MissingSummary
}

// LoadOptions say where server executables are looked for and in which
// environment servers run. The zero value searches only each server's PATH
// in os.Environ().
type LoadOptions struct {
	// HostEnv is the environment every server's environment is built from
	// (ServerEnv: the allowlist, passEnv, env); nil means os.Environ().
	HostEnv []string
	// SearchDirs are searched in order, after the server's PATH, for a
	// command given as a bare name: DefaultSearchDirs for where lspseam's
	// installers put servers (the lspseam CLI puts the .tools/bin of its
	// checkout and its installation's share/lspseam/bin first). Relative
	// and empty entries are ignored, and so is a directory that another
	// user could write to.
	SearchDirs []string
	// InstallAdvice, when set, is offered first to install a missing
	// server, e.g. "run `make servers` in /src/lspseam".
	InstallAdvice string
}

// Load validates a configuration (JSON) with the core, resolves every
// server's executable on its PATH, and returns the servers sorted by id
// and the validated config. A missing server that is not optional fails
// the whole load: nothing is returned for the others, so a caller never
// registers half a table. Optional servers that are missing are left out;
// LoadConfig reports them and searches more places.
func Load(ctx context.Context, core *lspseam.Core, configJSON []byte, hostEnv []string) ([]Server, lspseam.Config, error) {
	if hostEnv == nil {
		hostEnv = []string{}
	}
	t, err := LoadConfig(ctx, core, configJSON, LoadOptions{HostEnv: hostEnv})
	if err != nil {
		return nil, lspseam.Config{}, err
	}
	return t.Servers, t.Config, nil
}

// LoadConfig validates a configuration (JSON; LoadFile reads YAML) with
// the core and resolves every server's executable: a command with a slash
// is a path, a bare name is searched on the server's PATH, then in
// opts.SearchDirs. A server that is not found fails the whole load with
// LSP_CONFIG_INVALID unless it is optional: then it is listed in
// Table.Missing.
func LoadConfig(ctx context.Context, c *lspseam.Core, configJSON []byte, opts LoadOptions) (*Table, error) {
	cfg, err := c.ValidateConfig(ctx, configJSON)
	if err != nil {
		return nil, err
	}
	hostEnv := opts.HostEnv
	if hostEnv == nil {
		hostEnv = os.Environ()
	}
	ids := make([]string, 0, len(cfg.Servers))
	for id := range cfg.Servers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	t := &Table{Config: cfg, installAdvice: opts.InstallAdvice}
	var problems []lspseam.ConfigProblem
	for _, id := range ids {
		sc := cfg.Servers[id]
		env := ServerEnv(hostEnv, sc.Command, sc.PassEnv, sc.Env)
		path, notFound := resolveCommand(sc.Command, env, opts.SearchDirs)
		if notFound == "" {
			t.Servers = append(t.Servers, Server{ID: id, Config: sc, Path: path, Env: env})
			continue
		}
		install := installAdvice(sc.Command, opts.InstallAdvice)
		if sc.Optional {
			t.Missing = append(t.Missing, MissingServer{ID: id, Config: sc, NotFound: notFound, Install: install})
			continue
		}
		fix := "give an absolute command path, or mark the server optional: true"
		if install != "" {
			fix = "install it (" + install + "), " + fix
		}
		at := "servers." + id + ".command"
		problems = append(problems, lspseam.ConfigProblem{Path: at, Message: at + ": " + notFound + "; " + fix})
	}
	if len(problems) > 0 {
		return nil, core.ConfigInvalid("", problems)
	}
	return t, nil
}

// MissingSummary is one line naming every missing optional server, for a
// single warning at start-up; "" when none is missing.
func (t *Table) MissingSummary() string {
	if len(t.Missing) == 0 {
		return ""
	}
	names := make([]string, len(t.Missing))
	for i, m := range t.Missing {
		names[i] = m.ID
		if m.Config.Command != m.ID {
			names[i] += " (" + m.Config.Command + ")"
		}
	}
	if len(t.Missing) == 1 {
		s := "optional language server not installed, skipped: " + names[0] + "; queries on its files answer LSP_UNAVAILABLE"
		if m := t.Missing[0]; m.Install != "" {
			s += "; to install it: " + m.Install
		}
		return s
	}
	shown := names
	if len(shown) > maxMissingNamed {
		shown = append(shown[:maxMissingNamed:maxMissingNamed], fmt.Sprintf("and %d more", len(names)-maxMissingNamed))
	}
	s := "optional language servers not installed, skipped: " + strings.Join(shown, ", ") +
		"; queries on their files answer LSP_UNAVAILABLE saying how to install each"
	if t.installAdvice != "" {
		s += "; to install the tested ones: " + t.installAdvice
	}
	return s + "; `lspseam doctor` lists the languages of a workspace and their servers"
}

// maxMissingNamed bounds the names one start-up warning lists: the
// presets name some thirty servers, and most machines have a few.
const maxMissingNamed = 8

// ResolveExecutable finds command the way a shell would, without using
// one: a name with a slash is a path (relative to the current directory),
// a bare name is searched in the PATH of env. problem says what is wrong.
func ResolveExecutable(command string, env []string) (path string, problem string) {
	return resolveCommand(command, env, nil)
}

// resolveCommand is ResolveExecutable searching dirs after the PATH, by
// this platform's rules (commandlookup.go).
func resolveCommand(command string, env []string, dirs []string) (path string, notFound string) {
	return hostCommandRules.resolve(command, env, dirs)
}

// unsafeDir says why dir cannot be trusted to hold the executables the
// user meant to run, or "". Unlike PATH, a search directory is not the
// user's own choice (one is found beside the executable, which may sit
// under a shared directory such as /tmp), so it and every ancestor must be
// owned by root or the user and not writable by others, a sticky directory
// like /tmp excepted: then no other user can plant a server in it.
func unsafeDir(dir string) string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err.Error()
	}
	uid := uint32(os.Getuid())
	for d := real; ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil {
			return err.Error()
		}
		if owner, ok := fileOwner(info); ok && owner != 0 && owner != uid {
			return d + " belongs to another user"
		}
		if info.Mode().Perm()&0o022 != 0 && info.Mode()&os.ModeSticky == 0 {
			return d + " is writable by other users"
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func isExecutable(path string) bool {
	return hostCommandRules.isExecutable(path, hostCommandRules.pathext(os.Environ()))
}
