#!/usr/bin/env bash
# Installs the pinned language servers used by lspseam (its end-to-end tests, the demo,
# and the shim's built-in presets) into a tools directory, by default .tools/ at the
# repository root (gitignored):
#
#   TOOLS/bin/gopls                       gopls (Go module proxy, `go install`)      needs go
#   TOOLS/bin/typescript-language-server  typescript-language-server + typescript    needs node >= 20, npm
#   TOOLS/bin/pyright-langserver          pyright (npm ci, the committed lockfile)   needs node >= 20, npm
#   TOOLS/bin/clangd                      clangd: the one on PATH, else the Debian   needs clangd, or apt-get
#                                         package (apt-get install clangd),           (as root or with sudo)
#                                         symlinked
#
# Environment:
#   SERVERS       which to install, any of: gopls typescript pyright clangd (default: all)
#   LSPSEAM_TOOLS the tools directory (default: <repo>/.tools; `make install-servers`
#                 uses PREFIX/share/lspseam, where an installed lspseam finds them)
#   REQUIRE_ALL   1: exit non-zero when any selected server was skipped (CI uses it)
#
# A server whose prerequisites are missing (no apt-get for clangd, no node for the npm
# servers, no go for gopls) is skipped with the reason, and the others are still
# installed; the summary at the end lists what was skipped. The exit status is non-zero
# when an install that was attempted failed, or, with REQUIRE_ALL=1, when anything was
# skipped.
#
# Idempotent: each component writes a stamp file (TOOLS/.stamp-<name>-<version>) after a
# successful install and is skipped while its stamp and binary are present, so a second run
# only prints the versions. The npm stamp is keyed on the hash of package.json and
# package-lock.json in this directory, so `npm ci` runs again only when they change.
#
# Usage: bash tools/servers/install.sh     (or `make servers`, `make install-servers`)
set -euo pipefail

GOPLS_VERSION=v0.23.0

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tools=${LSPSEAM_TOOLS:-$root/.tools}
bin=$tools/bin
servers=${SERVERS:-gopls typescript pyright clangd}

log() { printf 'servers: %s\n' "$*" >&2; }

for s in $servers; do
  case $s in
    gopls|typescript|pyright|clangd) ;;
    *) log "error: unknown server '$s' in SERVERS (use gopls, typescript, pyright, clangd)"; exit 2 ;;
  esac
done
wants() { [[ " $servers " == *" $1 "* ]]; }

log "installing into $bin: $servers"
log "needs: go for gopls; Node.js >= 20 with npm for typescript and pyright;"
log "       clangd already on PATH, or Debian/Ubuntu apt-get (as root or with sudo) to install it"

mkdir -p "$bin" "$tools/logs"

# skipped[NAME]=REASON for servers not installed because a prerequisite is missing;
# failed[NAME]=REASON for installs that were attempted and failed.
declare -A skipped=() failed=()

# run NAME CMD...: runs CMD with its output in TOOLS/logs/NAME.log; on failure shows the
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
  if ! command -v go >/dev/null 2>&1; then
    skipped[gopls]="'go' is not on PATH (a Go toolchain is needed to build gopls)"
    return
  fi
  log "gopls $GOPLS_VERSION: go install (this takes a minute or two on a cold module cache)"
  rm -f "$tools"/.stamp-gopls-*
  # Run outside the repository so its go.mod and any GOFLAGS=-mod=... do not interfere.
  if ! (cd "$tools" && run gopls env GOBIN="$bin" GOFLAGS= go install "golang.org/x/tools/gopls@$GOPLS_VERSION"); then
    failed[gopls]="'go install golang.org/x/tools/gopls@$GOPLS_VERSION' failed"
    return
  fi
  local got
  if ! got=$("$bin/gopls" version 2>&1); then
    failed[gopls]="the installed binary does not run: $got"
  elif [[ $got != *" $GOPLS_VERSION"* ]]; then
    failed[gopls]="expected $GOPLS_VERSION, got: $got"
  else
    touch "$stamp"
  fi
}

# ---------------------------------------------------------------------------------------
# typescript-language-server, typescript, pyright (npm, from the committed lockfile)
install_npm() {
  local npmdir=$tools/npm names=() name
  wants typescript && names+=(typescript)
  wants pyright && names+=(pyright)
  local missing=
  if ! command -v node >/dev/null 2>&1; then
    missing="'node' is not on PATH (Node.js >= 20 is needed)"
  elif ! command -v npm >/dev/null 2>&1; then
    missing="'npm' is not on PATH"
  else
    local major
    major=$(node -p 'process.versions.node.split(".")[0]')
    (( major >= 20 )) || missing="Node.js >= 20 is required by typescript-language-server 5.3.0, found $(node --version)"
  fi
  if [[ -n $missing ]]; then
    for name in "${names[@]}"; do skipped[$name]=$missing; done
    return
  fi

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
      for name in "${names[@]}"; do failed[$name]="'npm ci' in $npmdir failed"; done
      return
    fi
    touch "$stamp"
  fi

  local server command
  for server in "${names[@]}"; do
    command=typescript-language-server
    [[ $server == pyright ]] && command=pyright-langserver
    if [[ -e $npmdir/node_modules/.bin/$command ]]; then
      ln -sfn "../npm/node_modules/.bin/$command" "$bin/$command"
    else
      failed[$server]="$npmdir/node_modules/.bin/$command is missing after npm ci"
    fi
  done
}

# ---------------------------------------------------------------------------------------
# clangd (the one on PATH, else the Debian package)
install_clangd() {
  # The first clangd on PATH that is not our own link.
  local path= dir dirs
  IFS=: read -ra dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    if [[ -n $dir && $dir != "$bin" && -x $dir/clangd ]]; then
      path=$dir/clangd
      break
    fi
  done
  if [[ -n $path ]]; then
    log "clangd: found $path"
    ln -sfn "$path" "$bin/clangd"
    return
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    skipped[clangd]="clangd is not on PATH and apt-get is not available; install clangd (your distribution's package, or a release from https://github.com/clangd/clangd/releases) and re-run"
    return
  fi
  local sudo=
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      skipped[clangd]="clangd is not installed and this is not root (no sudo); run 'apt-get install clangd' as root and re-run"
      return
    fi
    sudo=sudo
  fi
  log "clangd: apt-get update && apt-get install -y clangd"
  if ! run apt-update $sudo env DEBIAN_FRONTEND=noninteractive apt-get update; then
    failed[clangd]="apt-get update failed"
    return
  fi
  if ! run apt-install $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clangd; then
    failed[clangd]="apt-get install clangd failed"
    return
  fi
  path=$(command -v clangd 2>/dev/null) || path=/usr/bin/clangd
  if [[ ! -x $path ]]; then
    failed[clangd]="still not found after apt-get install"
    return
  fi
  ln -sfn "$path" "$bin/clangd"
}

wants gopls && install_gopls
if wants typescript || wants pyright; then install_npm; fi
wants clangd && install_clangd

# ---------------------------------------------------------------------------------------
# Smoke-test each installed server and print its version.
npm_version() { node -p "require('$tools/npm/node_modules/$1/package.json').version"; }
# version NAME CMD...: sets v to the first line CMD prints; records a failure unless CMD
# succeeds.
version() {
  local name=$1 out; shift
  if ! out=$("$@" 2>&1); then
    failed[$name]="does not start: ${out%%$'\n'*}"
    return 1
  fi
  v=${out%%$'\n'*}
}

ready=()
installed() { [[ -z ${skipped[$1]:-} && -z ${failed[$1]:-} ]]; }
if wants gopls && installed gopls && version gopls "$bin/gopls" version; then
  ready+=("gopls                       $v")
fi
if wants typescript && installed typescript && version typescript "$bin/typescript-language-server" --version; then
  ready+=("typescript-language-server  $v (typescript $(npm_version typescript))")
fi
# pyright-langserver has no --version (it insists on --stdio); the pyright CLI from the same
# package has one.
if wants pyright && installed pyright && version pyright "$tools/npm/node_modules/.bin/pyright" --version; then
  ready+=("pyright-langserver          $v")
fi
if wants clangd && installed clangd && version clangd "$bin/clangd" --version; then
  ready+=("clangd                      $v")
fi

if (( ${#ready[@]} > 0 )); then
  log "ready in $bin:"
  for line in "${ready[@]}"; do log "  $line"; done
fi
for name in "${!skipped[@]}"; do
  log "SKIPPED $name: ${skipped[$name]}"
done
for name in "${!failed[@]}"; do
  log "FAILED $name: ${failed[$name]}"
done
if (( ${#failed[@]} > 0 )); then
  exit 1
fi
if (( ${#skipped[@]} > 0 )); then
  if [[ ${REQUIRE_ALL:-} == 1 ]]; then
    log "error: REQUIRE_ALL=1 and ${#skipped[@]} server(s) skipped"
    exit 1
  fi
  log "the servers above were skipped; lspseam answers their files with LSP_UNAVAILABLE until they are installed"
fi
