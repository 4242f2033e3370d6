package workspacefs

// OpenNoFollow is empty: os.OpenFile on Windows has no flag to refuse a
// final symlink (reparse point). Source reads go through os.Root
// (hostfs_root.go), which refuses escapes; the watcher's hashing of a
// file swapped for a symlink may read the link's target, which it never
// sends anywhere.
const OpenNoFollow = 0
