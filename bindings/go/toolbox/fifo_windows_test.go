package toolbox

import "errors"

// mkfifo: Windows has no FIFOs in the file system.
func mkfifo(path string) error { return errors.New("no FIFOs on Windows") }
