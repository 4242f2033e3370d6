//go:build !linux

package workspacefs

// sourceOpener is os.Root's route: openat2 is Linux's.
var sourceOpener sourceRoute = openSourceRoot
