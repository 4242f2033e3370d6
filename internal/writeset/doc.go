// Package writeset applies a set of file changes in one workspace
// all-or-nothing, across processes and across crashes: the protocol under
// every write lspseam makes (docs/design.md, "Edits"; RATIONALE.md,
// "Writes survive kill -9").
//
// Three pieces, one file each:
//
//   - lock.go: cross-process advisory locks on files, keyed by their
//     canonical paths, taken in one global order (no deadlock between two
//     sets) and released by the kernel when their holder dies.
//   - journal.go: the intent journal of one set — its files, their content
//     hashes before and after, the temporaries and the links that keep the
//     old contents — written before the first rename (and synced, for a
//     set of more than one change) and removed after the last, with the
//     set's state (prepared, committed, rolling back) in the journal's
//     name.
//   - recover.go: what any later process does with a journal whose owner
//     died: roll the set forward when it was committed and every file can
//     get its new content, back otherwise, leaving alone any file someone
//     else changed since, and removing every temporary the set made.
//
// The package owns the journal and lock directories under a Store's
// directory and the temporaries and old-content links a set makes beside
// its files (".NAME.lspseam-ID.tmp", ".NAME.lspseam-ID.old"). It does not
// read or interpret file contents beyond hashing them, and it never
// follows a path out of the workspace: every workspace file is reached
// through an os.Root.
//
// Guarantees hold among processes that use the same Store directory (one
// user's lspseam processes); an editor or tool that writes without these
// locks is not excluded.
package writeset
