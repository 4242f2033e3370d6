package localstdio

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/localstdio/internal/supervisor"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// envMap is an os.Environ-form list as a map (the last entry of a name
// wins, as in a process).
func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func TestServerEnv(t *testing.T) {
	toolchains := []string{
		"PATH=/usr/local/go/bin:/home/u/.nvm/node@18/bin:/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C", "XDG_CACHE_HOME=/c",
		"GOPATH=/go", "GOFLAGS=-mod=mod -ldflags=-X=main.author=bob", "NODE_OPTIONS=--max-old-space-size=4096",
		"PYTHONPATH=/py", "VIRTUAL_ENV=/venv", "CLANGD_FLAGS=--log=error", "CPATH=/inc", "CARGO_HOME=/cargo", "JAVA_HOME=/jdk",
	}
	for _, tc := range []struct {
		name    string
		command string
		host    []string
		passEnv []string
		extra   map[string]string
		want    map[string]string // present with these values
		absent  []string
	}{
		{
			name: "gopls gets the base and Go's", command: "gopls", host: toolchains,
			want: map[string]string{"PATH": "/usr/local/go/bin:/home/u/.nvm/node@18/bin:/bin", "HOME": "/home/u", "LANG": "C.UTF-8",
				"LC_ALL": "C", "XDG_CACHE_HOME": "/c", "GOPATH": "/go", "GOFLAGS": "-mod=mod -ldflags=-X=main.author=bob"},
			absent: []string{"NODE_OPTIONS", "PYTHONPATH", "VIRTUAL_ENV", "CLANGD_FLAGS", "CPATH", "CARGO_HOME", "JAVA_HOME"},
		},
		{
			name: "a command path is known by its base name", command: "/opt/go/bin/gopls", host: toolchains,
			want: map[string]string{"GOPATH": "/go"}, absent: []string{"NODE_OPTIONS"},
		},
		{
			name: "typescript-language-server gets Node's", command: "typescript-language-server", host: toolchains,
			want:   map[string]string{"NODE_OPTIONS": "--max-old-space-size=4096", "PATH": "/usr/local/go/bin:/home/u/.nvm/node@18/bin:/bin"},
			absent: []string{"GOPATH", "GOFLAGS", "PYTHONPATH", "CPATH"},
		},
		{
			name: "pyright gets Node's and Python's", command: "pyright-langserver", host: toolchains,
			want:   map[string]string{"NODE_OPTIONS": "--max-old-space-size=4096", "PYTHONPATH": "/py", "VIRTUAL_ENV": "/venv"},
			absent: []string{"GOPATH", "CLANGD_FLAGS"},
		},
		{
			name: "clangd gets C's", command: "clangd", host: toolchains,
			want: map[string]string{"CLANGD_FLAGS": "--log=error", "CPATH": "/inc"}, absent: []string{"GOPATH", "NODE_OPTIONS"},
		},
		{
			name: "an unknown command gets every toolchain's", command: "/opt/my-server", host: toolchains,
			want: map[string]string{"GOPATH": "/go", "NODE_OPTIONS": "--max-old-space-size=4096", "PYTHONPATH": "/py",
				"CLANGD_FLAGS": "--log=error", "CARGO_HOME": "/cargo", "JAVA_HOME": "/jdk"},
		},
		{
			// The probe's names and other members of the old families: no
			// name that is not listed passes, whatever it starts with.
			name: "family look-alikes stay out", command: "/opt/my-server",
			host: []string{"GOOGLE_SERVICE_ACCOUNT_JSON={}", "GOOSE_DBSTRING=x", "GO_DSN=x", "GOOGLE_APIKEY=x", "NODE_APIKEY=x",
				"GOAUTH=netrc", "CGO_SECRET=x", "NODE_AUTH_TOKEN=x", "NPM_CONFIG__AUTH=x", "npm_config__authToken=x", "npm_config_//registry.npmjs.org/:_authToken=x",
				"PYTHON_KEYRING_PASSWORD=x", "PIP_INDEX_URL=https://pypi.example/simple", "UV_PUBLISH_TOKEN=x", "CARGO_REGISTRY_TOKEN=x",
				"RUSTUP_DIST_SERVER=x", "LC_SECRET=x", "XDG_SESSION_COOKIE=x", "CLANGD_API_KEY=x", "CONDA_TOKEN=x", "MONKEY=banana", "PLAIN_VAR=v"},
			absent: []string{"GOOGLE_SERVICE_ACCOUNT_JSON", "GOOSE_DBSTRING", "GO_DSN", "GOOGLE_APIKEY", "NODE_APIKEY", "GOAUTH", "CGO_SECRET",
				"NODE_AUTH_TOKEN", "NPM_CONFIG__AUTH", "npm_config__authToken", "npm_config_//registry.npmjs.org/:_authToken",
				"PYTHON_KEYRING_PASSWORD", "PIP_INDEX_URL", "UV_PUBLISH_TOKEN", "CARGO_REGISTRY_TOKEN", "RUSTUP_DIST_SERVER", "LC_SECRET",
				"XDG_SESSION_COOKIE", "CLANGD_API_KEY", "CONDA_TOKEN", "MONKEY", "PLAIN_VAR"},
		},
		{
			name: "an allowed name whose value carries a credential is dropped", command: "/opt/my-server",
			host: []string{"HTTP_PROXY=http://user:pass@proxy:3128", "GOPROXY=https://u:t@proxy.example", "GOFLAGS=host=db user=app password=hunter2",
				"CC=app:hunter2@tcp(db)/app", `NODE_OPTIONS={"type":"service_account","private_key":"x"}`, "GOENV=apiKey=abc",
				"PYTHONPATH=-----BEGIN RSA PRIVATE KEY-----", "npm_config_registry=https://u:p@registry.example/", "CPATH=DB_PASSWORD=x",
				"HTTPS_PROXY=http://proxy:3128", "GOPRIVATE=github.com/me/*"},
			want:   map[string]string{"HTTPS_PROXY": "http://proxy:3128", "GOPRIVATE": "github.com/me/*"},
			absent: []string{"HTTP_PROXY", "GOPROXY", "GOFLAGS", "CC", "NODE_OPTIONS", "GOENV", "PYTHONPATH", "npm_config_registry", "CPATH"},
		},
		{
			name: "passEnv passes any host name and value; env sets anything, last", command: "gopls",
			host:    []string{"MY_SERVICE_URL=https://svc", "DATABASE_URL=postgres://u:pw@db/x", "GOFLAGS=-mod=mod", "NODE_OPTIONS=--x"},
			passEnv: []string{"MY_SERVICE_URL", "DATABASE_URL", "NODE_OPTIONS"},
			extra:   map[string]string{"GOFLAGS": "-tags=x", "EXTRA_TOKEN": "allowed"},
			want: map[string]string{"MY_SERVICE_URL": "https://svc", "DATABASE_URL": "postgres://u:pw@db/x", "NODE_OPTIONS": "--x",
				"GOFLAGS": "-tags=x", "EXTRA_TOKEN": "allowed"},
		},
		{
			name: "LSPSEAM_* never passes, not even through passEnv", command: "gopls",
			host: []string{"LSPSEAM_CACHE_DIR=/c", "LSPSEAM_DEBUG=1", "lspseam_x=1"}, passEnv: []string{"LSPSEAM_DEBUG", "lspseam_x"},
			absent: []string{"LSPSEAM_CACHE_DIR", "LSPSEAM_DEBUG", "lspseam_x"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := ServerEnv(tc.host, tc.command, tc.passEnv, tc.extra)
			got := envMap(env)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q (env %q)", k, got[k], v, env)
				}
			}
			for _, k := range tc.absent {
				if v, ok := got[k]; ok {
					t.Errorf("%s=%s reached the server", k, v)
				}
			}
		})
	}
}

func TestHasCredential(t *testing.T) {
	for value, want := range map[string]bool{
		"":                                     false,
		"/usr/local/go/bin:/home/u/bin":        false,
		"/home/u/.nvm/node@18/bin:/bin":        false,
		"-mod=mod -ldflags=-X=main.author=bob": false,
		"--max-old-space-size=4096":            false,
		"https://proxy.golang.org,direct":      false,
		"http://proxy:3128":                    false,
		"sum.golang.org+033de0ae+Ac4zctda0":    false,
		"-DKEYBOARD=1 -DMONKEY=2":              false,
		"--require=@scope/pkg":                 false,
		"git@github.com:me/repo.git":           false,
		"http://user:pass@proxy:3128":          true,
		"https://token@proxy":                  true,
		"redis://:pw@cache:6379":               true,
		"host=db user=app password=hunter2":    true,
		"app:hunter2@tcp(db)/app":              true,
		"user=app pwd=x":                       true,
		`{"private_key":"x"}`:                  true,
		`{"client_secret" : "x"}`:              true,
		"apiKey=abc":                           true,
		"-X main.githubToken=abc":              true,
		"-DAPI_KEY=x":                          true,
		"-----BEGIN OPENSSH PRIVATE KEY-----":  true,
	} {
		if got := hasCredential(value); got != want {
			t.Errorf("hasCredential(%q) = %v, want %v", value, got, want)
		}
	}
}

// TestAllowlistNamesNoCredential: no allowlisted name is itself a
// credential's name, so the exact lists cannot grow one by mistake.
func TestAllowlistNamesNoCredential(t *testing.T) {
	for _, list := range append([][]string{baseNames}, unionNames...) {
		for _, name := range list {
			if isCredentialName(name) || strings.ContainsAny(name, "*?") {
				t.Errorf("allowlisted %q names a credential or a pattern", name)
			}
		}
	}
	for command, lists := range toolchainsOf {
		for _, list := range lists {
			if !containsList(unionNames, list) {
				t.Errorf("toolchainsOf[%q] has a list unionNames lacks", command)
			}
		}
	}
}

func containsList(lists [][]string, list []string) bool {
	for _, l := range lists {
		if &l[0] == &list[0] {
			return true
		}
	}
	return false
}

// credentialSpellings are 30+ ways a host environment holds credentials:
// the probe's family look-alikes, DSNs, URLs with user information, keys,
// tokens, secrets, passwords, JSON key files, cloud and registry
// credentials, and allowed names carrying credential values. Every value
// holds the marker, so a leak under any name is seen.
const leakMarker = "s3cr3t-marker"

var credentialSpellings = []string{
	`GOOGLE_SERVICE_ACCOUNT_JSON={"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\n` + leakMarker + `\n-----END PRIVATE KEY-----\n"}`,
	"GOOSE_DBSTRING=host=db user=app password=" + leakMarker,
	"GO_DSN=app:" + leakMarker + "@tcp(db)/app",
	"GOOGLE_APIKEY=" + leakMarker,
	"NODE_APIKEY=" + leakMarker,
	"DATABASE_DSN=app:" + leakMarker + "@tcp(db:3306)/app",
	"SENTRY_DSN=https://" + leakMarker + "@sentry.io/1",
	"DATABASE_URL=postgres://app:" + leakMarker + "@db/app",
	"REDIS_URL=redis://:" + leakMarker + "@cache:6379",
	"OPENAI_API_KEY=sk-" + leakMarker,
	"STRIPE_SECRET_KEY=sk_live_" + leakMarker,
	"GITHUB_TOKEN=ghp_" + leakMarker,
	"GH_PAT=" + leakMarker,
	"NPM_TOKEN=" + leakMarker,
	"NODE_AUTH_TOKEN=" + leakMarker,
	"PYPI_PASSWORD=" + leakMarker,
	"TWINE_PASSWORD=" + leakMarker,
	"DB_PASSWORD=" + leakMarker,
	"MYSQL_PWD=" + leakMarker,
	"CLIENT_SECRET=" + leakMarker,
	"JWT_SECRET=" + leakMarker,
	`GOOGLE_APPLICATION_CREDENTIALS_JSON={"private_key":"` + leakMarker + `"}`,
	"AWS_ACCESS_KEY_ID=AKIA" + leakMarker,
	"AWS_SECRET_ACCESS_KEY=" + leakMarker,
	"AWS_SESSION_TOKEN=" + leakMarker,
	"CARGO_REGISTRY_TOKEN=" + leakMarker,
	"NPM_CONFIG__AUTH=" + leakMarker,
	"npm_config__authToken=" + leakMarker,
	"PIP_INDEX_URL=https://u:" + leakMarker + "@pypi.example/simple",
	"SLACK_WEBHOOK_URL=https://hooks.slack.com/services/" + leakMarker,
	"PYTHON_KEYRING_PASSWORD=" + leakMarker,
	"LC_SECRET=" + leakMarker,
	// Allowed names whose values carry credentials:
	"HTTP_PROXY=http://user:" + leakMarker + "@proxy:3128",
	"GOPROXY=https://u:" + leakMarker + "@goproxy.example",
	"npm_config_registry=https://u:" + leakMarker + "@registry.example/",
	"CGO_LDFLAGS=host=db password=" + leakMarker,
}

// TestServerProcessEnvironment starts real server processes (the fake
// server, under its supervisor) from a host environment full of
// credentials and reads the environment each process really has: the one
// the server reports and /proc/<pid>/environ of the server and of its
// supervisor. No credential reaches them; the toolchain variables reach
// the server; the supervisor, shared by every server, has nothing but its
// marker.
func TestServerProcessEnvironment(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc: the test reads /proc/<pid>/environ")
	}
	host := append(os.Environ(), "GOPATH=/gopath-test", "GOFLAGS=-mod=mod", "NODE_OPTIONS=--max-old-space-size=4096", "LSPSEAM_DEBUG=1")
	host = append(host, credentialSpellings...)
	if len(credentialSpellings) < 30 {
		t.Fatalf("only %d credential spellings", len(credentialSpellings))
	}
	// The fake under its own name is a command lspseam does not know (it
	// gets every toolchain's names); linked as gopls it gets Go's only.
	gopls := filepath.Join(t.TempDir(), "gopls")
	if err := os.Symlink(buildFake(t), gopls); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		extra  map[string]any
		want   []string
		absent []string
	}{
		{name: "unknown command", want: []string{"PATH", "GOPATH", "GOFLAGS", "NODE_OPTIONS"}},
		{name: "gopls", extra: map[string]any{"command": gopls}, want: []string{"PATH", "GOPATH", "GOFLAGS"}, absent: []string{"NODE_OPTIONS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := baseline(t)
			f := newFakeEnv(t, echo, tc.extra, host)
			f.mustQuery(lspseam.OpDefinition)
			var start *event
			for _, e := range f.events() {
				if e.Event == "start" {
					start = &e
				}
			}
			if start == nil {
				t.Fatal("no start event")
			}
			envs := map[string]map[string]string{"reported by the server": start.Env}
			for what, pid := range map[string]int{"server": start.PID, "supervisor": start.PPID} {
				data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				envs["/proc environ of the "+what] = envMap(strings.Split(strings.TrimRight(string(data), "\x00"), "\x00"))
			}
			if got := envs["/proc environ of the supervisor"]; len(got) != 1 || got[supervisor.Env] != "1" {
				t.Errorf("the supervisor's environment is %v, want only %s=1", got, supervisor.Env)
			}
			delete(envs, "/proc environ of the supervisor")
			for what, env := range envs {
				var leaked []string
				for name, value := range env {
					if strings.Contains(value, leakMarker) || strings.HasPrefix(name, "LSPSEAM_") && name != supervisor.Env {
						leaked = append(leaked, name)
					}
				}
				sort.Strings(leaked)
				if len(leaked) > 0 {
					t.Errorf("%s: %v reached it", what, leaked)
				}
				for _, name := range tc.want {
					if want := lookupEnv(host, name); env[name] != want {
						t.Errorf("%s: %s = %q, want %q", what, name, env[name], want)
					}
				}
				for _, name := range tc.absent {
					if _, ok := env[name]; ok {
						t.Errorf("%s: %s reached it", what, name)
					}
				}
			}
			checkQuiescent(t, f, g)
		})
	}
}
