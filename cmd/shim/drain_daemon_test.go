//go:build linux || darwin

package main

import (
	"strings"
	"testing"
)

// The daemon: `lspseam daemon stop` while a relayed client's code_rename
// runs.
func TestDrainDaemonStop(t *testing.T) {
	d := newDaemonClients(t)
	f := newDrainFixture(t, false)
	d.config, d.ws, d.f.bin = f.config, f.workspace, f.bin
	cs, _ := d.connect(t)
	ctx := testContext(t)
	call := startCall(ctx, cs, "code_rename", drainRenameArgs)
	f.renameHeld(t)
	stopped := make(chan string, 1)
	go func() {
		out, err := d.run(t, "daemon", "stop")
		if err != nil {
			out += " (" + err.Error() + ")"
		}
		stopped <- out
	}()
	awaitStopping(t, d.logs, call)
	checkRefusedWhileStopping(t, ctx, cs)
	f.release(t)
	f.checkApplied(t, call)
	select {
	case out := <-stopped:
		if !strings.Contains(out, "stopped the daemon (pid ") {
			t.Errorf("daemon stop: %s", out)
		}
	case <-ctx.Done():
		t.Fatal("daemon stop did not return")
	}
	if logs := d.logs(); strings.Contains(logs, "cut off") || !strings.Contains(logs, "why=\"lspseam daemon stop\"") || !strings.Contains(logs, "stopping: every call in flight has answered") {
		t.Errorf("the daemon's log should say it let the call answer on daemon stop, cutting nothing off:\n%s", logs)
	}
}
