package serverinstall

import (
	"os"
	"path/filepath"
	"strings"
)

// InstalledSpec says what `lspseam servers install` installed for an
// executable (through its links): the spec in the stamp of the install
// directory that holds it ("npm pyright@1.1.414"), or ok=false for an
// executable it did not install. Doctor shows it for a server that
// reports no version of its own.
func InstalledSpec(executable string) (spec string, ok bool) {
	real, err := filepath.EvalSymlinks(executable)
	if err != nil {
		return "", false
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		if filepath.Base(filepath.Dir(dir)) == "servers" {
			data, err := os.ReadFile(filepath.Join(dir, stampName))
			if err != nil {
				return "", false
			}
			return strings.TrimSpace(string(data)), true
		}
		if dir == filepath.Dir(dir) {
			return "", false
		}
	}
}
