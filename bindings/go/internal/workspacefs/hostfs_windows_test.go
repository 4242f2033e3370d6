package workspacefs

import "testing"

// specialFiles: Windows has no FIFOs or device nodes a test can make in a
// directory.
func specialFiles(t *testing.T, dir string) map[string]string { return nil }
