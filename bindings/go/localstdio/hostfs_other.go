//go:build !linux

package localstdio

// sourceOpener is os.Root's route: openat2 is Linux's.
var sourceOpener sourceRoute = openSourceRoot
