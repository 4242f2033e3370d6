// Package e2e holds lspseam's end-to-end tests: the built bin/lspseam
// against real language servers (gopls, typescript-language-server,
// pyright, clangd) on the fixture workspaces in testdata/workspaces, in
// both of its modes (query and serve).
//
// The servers come from `make servers` (.tools/bin). A missing server is a
// test failure, never a skip: CI must install them.
package e2e
