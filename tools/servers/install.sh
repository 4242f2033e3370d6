#!/usr/bin/env bash
# Installs the pinned language servers used by lspseam's end-to-end tests and demo
# into .tools/ at the repository root (gitignored):
#
#   .tools/bin/gopls                       gopls (Go module proxy, `go install`)
#   .tools/bin/typescript-language-server  typescript-language-server + typescript (npm ci)
#   .tools/bin/pyright-langserver          pyright (npm ci)
#   .tools/bin/clangd                      clangd (Debian package, symlinked)
#
# Idempotent: each component writes a stamp file (.tools/.stamp-<name>-<version>) after a
# successful install and is skipped while its stamp and binary are present, so a second run
# only prints the versions. The npm stamp is keyed on the hash of package.json and
# package-lock.json in this directory, so `npm ci` runs again only when they change.
#
# Usage: bash tools/servers/install.sh     (or `make servers`)
set -euo pipefail

GOPLS_VERSION=v0.23.0

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tools=$root/.tools
bin=$tools/bin

log() { printf 'servers: %s\n' "$*" >&2; }
die() { printf 'servers: error: %s\n' "$*" >&2; exit 1; }

mkdir -p "$bin" "$tools/logs"

# run NAME CMD...: runs CMD with its output in .tools/logs/NAME.log; on failure shows the
# log's tail and returns non-zero.
run() {
  local name=$1; shift
  local logfile=$tools/logs/$name.log
  if "$@" >"$logfile" 2>&1; then
    return 0
  fi
  printf 'servers: --- last lines of %s ---\n' "$logfile" >&2
  tail -n 40 "$logfile" >&2
  return 1
}

# Serialize concurrent runs (e.g. parallel make targets that both need the servers).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$tools/.lock"
  flock 9
fi

# ---------------------------------------------------------------------------------------
# gopls
install_gopls() {
  local stamp=$tools/.stamp-gopls-$GOPLS_VERSION
  if [[ -f $stamp && -x $bin/gopls ]]; then
    log "gopls $GOPLS_VERSION: already installed"
    return
  fi
  command -v go >/dev/null 2>&1 || die "gopls: 'go' is not on PATH (a Go toolchain is needed to install gopls)"
  log "gopls $GOPLS_VERSION: go install (this takes a minute or two on a cold module cache)"
  rm -f "$tools"/.stamp-gopls-*
  # Run outside the repository so its go.mod and any GOFLAGS=-mod=... do not interfere.
  if ! (cd "$tools" && run gopls env GOBIN="$bin" GOFLAGS= go install "golang.org/x/tools/gopls@$GOPLS_VERSION"); then
    die "gopls: 'go install golang.org/x/tools/gopls@$GOPLS_VERSION' failed"
  fi
  local got
  got=$("$bin/gopls" version 2>&1) || die "gopls: installed binary does not run: $got"
  [[ $got == *" $GOPLS_VERSION"* ]] || die "gopls: expected $GOPLS_VERSION, got: $got"
  touch "$stamp"
}

# ---------------------------------------------------------------------------------------
# typescript-language-server, typescript, pyright (npm, from the committed lockfile)
install_npm() {
  local npmdir=$tools/npm
  command -v node >/dev/null 2>&1 || die "npm servers: 'node' is not on PATH (Node.js >= 20 is needed)"
  command -v npm >/dev/null 2>&1 || die "npm servers: 'npm' is not on PATH"
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  (( major >= 20 )) || die "npm servers: Node.js >= 20 is required by typescript-language-server 5.3.0, found $(node --version)"

  local hash
  hash=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
  local stamp=$tools/.stamp-npm-$hash
  if [[ -f $stamp && -d $npmdir/node_modules ]]; then
    log "npm servers (lock $hash): already installed"
  else
    log "npm servers (lock $hash): npm ci"
    rm -f "$tools"/.stamp-npm-*
    mkdir -p "$npmdir"
    cp "$here/package.json" "$here/package-lock.json" "$npmdir/"
    if ! (cd "$npmdir" && run npm npm ci --no-audit --no-fund); then
      die "npm servers: 'npm ci' in $npmdir failed"
    fi
    touch "$stamp"
  fi

  local name
  for name in typescript-language-server pyright-langserver; do
    [[ -e $npmdir/node_modules/.bin/$name ]] || die "npm servers: $npmdir/node_modules/.bin/$name is missing after npm ci"
    ln -sfn "../npm/node_modules/.bin/$name" "$bin/$name"
  done
}

# ---------------------------------------------------------------------------------------
# clangd (Debian package)
install_clangd() {
  local path
  if ! path=$(command -v clangd 2>/dev/null) || [[ $path == "$bin/clangd" ]]; then
    path=
    [[ -x /usr/bin/clangd ]] && path=/usr/bin/clangd
  fi
  if [[ -z $path ]]; then
    command -v apt-get >/dev/null 2>&1 || die "clangd: not installed and apt-get is not available; install clangd and re-run"
    local sudo=
    if [[ $(id -u) -ne 0 ]]; then
      command -v sudo >/dev/null 2>&1 || die "clangd: not installed and not running as root (no sudo); install clangd and re-run"
      sudo=sudo
    fi
    log "clangd: apt-get update && apt-get install -y clangd"
    run apt-update $sudo env DEBIAN_FRONTEND=noninteractive apt-get update \
      || die "clangd: apt-get update failed"
    run apt-install $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clangd \
      || die "clangd: apt-get install clangd failed"
    path=$(command -v clangd 2>/dev/null) || path=/usr/bin/clangd
    [[ -x $path ]] || die "clangd: still not found after apt-get install"
  else
    log "clangd: found $path"
  fi
  ln -sfn "$path" "$bin/clangd"
}

install_gopls
install_npm
install_clangd

# ---------------------------------------------------------------------------------------
# Smoke-test each server and print its version.
npm_version() { node -p "require('$tools/npm/node_modules/$1/package.json').version"; }
# first_line NAME CMD...: runs CMD, dies with its output unless it succeeds, prints its first line.
first_line() {
  local name=$1 out; shift
  out=$("$@" 2>&1) || die "$name does not start: $out"
  printf '%s\n' "${out%%$'\n'*}"
}

v_gopls=$(first_line gopls "$bin/gopls" version)
v_tsls=$(first_line typescript-language-server "$bin/typescript-language-server" --version)
v_ts=$(npm_version typescript) || die "typescript package is missing"
# pyright-langserver has no --version (it insists on --stdio); the pyright CLI from the same
# package has one.
v_pyright=$(first_line pyright "$tools/npm/node_modules/.bin/pyright" --version)
v_clangd=$(first_line clangd "$bin/clangd" --version)

log "ready in $bin:"
log "  gopls                       $v_gopls"
log "  typescript-language-server  $v_tsls (typescript $v_ts)"
log "  pyright-langserver          $v_pyright"
log "  clangd                      $v_clangd"
