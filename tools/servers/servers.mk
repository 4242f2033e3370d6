# Included by the top-level Makefile.
#
# `make servers` installs the pinned language servers (gopls, typescript-language-server +
# typescript, pyright, clangd) into .tools/bin/, where bin/lspseam finds them.
# `make install-servers` installs them into PREFIX/share/lspseam/bin/, where an installed
# lspseam finds them. SERVERS picks some (make servers SERVERS="gopls clangd"); a server
# whose prerequisites are missing (e.g. no apt-get for clangd) is skipped with the reason
# and the others are still installed; REQUIRE_ALL=1 makes any skip an error (CI).
# Idempotent: a second run only checks stamps and prints the versions.
SERVERS ?= gopls typescript pyright clangd

.PHONY: servers install-servers
servers:
	SERVERS="$(SERVERS)" REQUIRE_ALL="$(REQUIRE_ALL)" bash tools/servers/install.sh

install-servers:
	LSPSEAM_TOOLS="$(PREFIX)/share/lspseam" SERVERS="$(SERVERS)" REQUIRE_ALL="$(REQUIRE_ALL)" bash tools/servers/install.sh
