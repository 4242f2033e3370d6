package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRenameRealCode measures a rename across files of a real
// project (issue 23: the core gets only the bytes a change needs): on a
// copy of spf13/cobra, `code_rename` of `Command.IsAvailableCommand`
// (22 uses in 9 files, among them command.go's 2,072 lines and
// command_test.go's 2,900) to `IsAvailableCmd` and back, through `lspseam
// serve` with gopls:
//
//   - apply: `--approval auto`, the whole change — gopls's rename, the
//     edits planned in the module, the files written, the diagnostics
//     delta of the nine files and of the files that use what changed;
//   - preview: `--approval preview` (a second serve, on a copy of its
//     own, so that it never catches up with the other's writes), the
//     rename planned and diffed, nothing written;
//   - approved: a third serve in `--approval preview`, the rename
//     previewed and then applied with its previewId; the apply alone is
//     also timed (approved-apply: the files checked, the server's rename
//     asked again and compared with the preview's, the write and the
//     delta).
//
// The three alternate; it reports each one's p50 and p90, and asserts no
// time, only that every answer renamed all 22 uses in 9 files. Name the
// checkout (it is copied, not touched):
//
//	LSPSEAM_PEER_COBRA=/path/to/spf13/cobra LSPSEAM_E2E=1 go test -run '^$' -bench BenchmarkRenameRealCode -benchtime 10x ./e2e/
func BenchmarkRenameRealCode(b *testing.B) {
	cobra := os.Getenv("LSPSEAM_PEER_COBRA")
	if _, err := os.Stat(filepath.Join(cobra, "command.go")); err != nil {
		b.Fatalf("LSPSEAM_PEER_COBRA=%q: set it to a checkout of spf13/cobra (%v)", cobra, err)
	}
	if _, err := os.Stat(filepath.Join(toolsBin, "gopls")); err != nil {
		b.Fatalf("gopls missing: run make servers (%v)", err)
	}
	apply := languageServe(b, []string{"--approval", "auto"})
	preview := languageServe(b, []string{"--approval", "preview"})
	approved := languageServe(b, []string{"--approval", "preview"})
	names := [2]string{"IsAvailableCommand", "IsAvailableCmd"}
	var applyTimes []time.Duration // the approved side's apply calls
	rename := func(srv *serveClient, applies, previewFirst bool) func() {
		ws, cur := cobraCopy(b, cobra), 0
		return func() {
			args := map[string]any{"target": map[string]any{"path": "command.go", "symbol": "Command." + names[cur]}, "newName": names[1-cur]}
			call := func(wantApplied bool) string {
				a := benchToolCall(b, srv, "code_rename", jsonArgs(args), ws)
				var r struct {
					Applied   bool             `json:"applied"`
					PreviewID string           `json:"previewId"`
					Edits     int              `json:"edits"`
					Files     []map[string]any `json:"files"`
				}
				if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Applied != wantApplied || !wantApplied && r.PreviewID == "" || r.Edits != 22 || len(r.Files) != 9 {
					b.Fatalf("rename %s → %s (apply %v): want 22 edits in 9 files: %s", names[cur], names[1-cur], wantApplied, a.StructuredContent)
				}
				return r.PreviewID
			}
			if previewFirst {
				args["previewId"] = call(false)
				t0 := time.Now()
				call(true)
				applyTimes = append(applyTimes, time.Since(t0))
			} else {
				call(applies)
			}
			if applies {
				cur = 1 - cur
			}
		}
	}
	sides := []func(){rename(apply, true, false), rename(preview, false, false), rename(approved, true, true)}
	for range 4 { // warm: the servers loaded, the names back where they were
		for _, f := range sides {
			f()
		}
	}
	applyTimes = nil
	times := timeAlternated(b, sides, 1, 50*time.Millisecond)
	times = append(times, applyTimes)
	for i, name := range []string{"apply", "preview", "approved", "approved-apply"} {
		b.ReportMetric(float64(percentile(times[i], 0.5).Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(percentile(times[i], 0.9).Microseconds())/1000, name+"-p90-ms")
	}
}
