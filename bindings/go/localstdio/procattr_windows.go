package localstdio

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// serverProcAttr starts a server in a new process group (so a console
// interrupt meant for the shim's user does not reach it) and without a
// console window flashing up (CREATE_NO_WINDOW).
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW,
		HideWindow:    true,
	}
}
