#!/usr/bin/env bash
# Checks, before `make test` starts its ~20-minute run, that what the tests
# need is installed: the pinned language servers in .tools/bin (the
# end-to-end tests fail rather than skip without them), Go, Node.js >= 20
# with npm (the ABI test, the npm package, the MCP client test), and
# /usr/bin/chromium (the npm package's browser test). If anything is
# missing it prints ONE line naming each missing thing and the command
# that installs it, and exits 1; otherwise it prints nothing.
#
# Environment (for its test): TOOLS_BIN (default <repo>/.tools/bin),
# CHROMIUM (default /usr/bin/chromium); node, npm and go are looked up on
# PATH.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools_bin=${TOOLS_BIN:-$root/.tools/bin}
chromium=${CHROMIUM:-/usr/bin/chromium}

missing=()
toolchains=1 # Go and Node.js are there: .ci/run can install the rest

if ! command -v go >/dev/null 2>&1; then
	missing+=("go (Go 1.26 from https://go.dev/dl)")
	toolchains=0
fi

node_ok=1
if ! command -v node >/dev/null 2>&1; then
	node_ok=0
else
	major=$(node --version 2>/dev/null | sed -n 's/^v\([0-9][0-9]*\)\..*/\1/p')
	if [ -z "$major" ] || [ "$major" -lt 20 ]; then
		node_ok=0
	fi
fi
if [ "$node_ok" = 0 ] || ! command -v npm >/dev/null 2>&1; then
	missing+=("Node.js >= 20 with npm (https://nodejs.org/en/download, or apt-get install nodejs npm where that is >= 20)")
	toolchains=0
fi

servers=()
for s in gopls terraform-ls buf typescript-language-server pyright-langserver clangd bash-language-server yaml-language-server \
	vscode-json-language-server vscode-html-language-server vscode-css-language-server intelephense docker-langserver \
	vue-language-server svelteserver prisma-language-server fortls cmake-language-server basedpyright-langserver ruff tombi ../clangd-22/bin/clangd; do
	[ -x "$tools_bin/$s" ] || servers+=("${s##*/}")
done
if [ ${#servers[@]} -gt 0 ]; then
	missing+=("language servers ${servers[*]} in $tools_bin (make servers REQUIRE_ALL=1)")
fi

if [ ! -x "$chromium" ]; then
	missing+=("$chromium for the browser test (apt-get install chromium)")
fi

if [ ${#missing[@]} -gt 0 ]; then
	line="make test: missing"
	sep=": "
	for m in "${missing[@]}"; do
		line+="$sep$m"
		sep="; "
	done
	line+="."
	if [ "$toolchains" = 1 ]; then
		line+=" (bash .ci/run, as root, installs them and runs make test.)"
	fi
	echo "$line" >&2
	exit 1
fi
