package localstdio

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A server's process tree on Windows is a Job Object created for it with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: every process the server starts joins
// the job, terminating the job ends them all, and when the shim's last
// handle to the job closes — the shim exiting, killed included — Windows
// terminates the job. That is the guarantee the supervisor gives on Linux.
// A process the server starts between its own start and attach is outside
// the job; servers start their helpers after they read initialize, which
// the shim sends after attach.
//
// Not tested on Windows here (docs/platforms.md): this file is
// cross-compiled and vetted only.

// procTree is the server's job.
type procTree struct {
	job windows.Handle
}

func newProcTree() (*procTree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return nil, err
	}
	return &procTree{job: job}, nil
}

// attach puts the started server into the job.
func (t *procTree) attach(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(t.job, h)
}

// signal ends the tree for SIGKILL and SIGTERM alike: Windows has no
// signal a console-less server could handle, and a server's graceful end
// is the LSP shutdown/exit the shim sends before it signals.
func (t *procTree) signal(pid int, sig syscall.Signal) error {
	if sig != syscall.SIGKILL && sig != syscall.SIGTERM {
		return nil
	}
	return windows.TerminateJobObject(t.job, 1)
}

func (t *procTree) close() { windows.CloseHandle(t.job) }
