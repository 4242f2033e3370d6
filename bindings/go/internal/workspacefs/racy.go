package workspacefs

import "time"

// RacyWindow is how recent a modification time is too recent to stand for
// a file's version: file systems stamp times from a clock that advances
// in ticks of milliseconds, so a second write of the same size within the
// same tick leaves size and time unchanged. A file modified within it is
// compared by content, or read again, never taken as unchanged by its
// stamp (what git calls "racily clean" entries). Shared by every cache
// that keys on a file's size and modification time.
const RacyWindow = 2 * time.Second
