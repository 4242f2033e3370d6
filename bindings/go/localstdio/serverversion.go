package localstdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/lspseam/lspseam/core"
)

// A found server's version, for `lspseam doctor`: what its table entry's
// version flag prints (versionArgs), else the serverInfo.version it
// answers initialize with. Either way the server runs as it would for a
// query (its path, its environment) and no longer than the caller's
// context allows; it is then stopped, its process group killed.

// ServerVersion returns the version a found server reports, asking it in
// root (the workspace; initialize's rootUri).
func ServerVersion(ctx context.Context, s Server, root string) (string, error) {
	entry, known := core.KnownServer("", s.Config.Command)
	if s.Config.Known != "" {
		entry, known = core.ServerByID(s.Config.Known)
	}
	if known && len(entry.VersionArgs) > 0 {
		return versionFlag(ctx, s, entry.VersionArgs)
	}
	return versionFromInitialize(ctx, s, root)
}

// maxVersionLength bounds a reported version: the first line of a
// program's output, which may be anything.
const maxVersionLength = 120

// versionFlag runs the server with its version arguments and takes the
// first non-empty line of its output.
func versionFlag(ctx context.Context, s Server, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, s.Path, args...)
	cmd.Env = s.Env
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	tree, err := newProcTree()
	if err != nil {
		return "", fmt.Errorf("%s %s could not be started: %v", s.Config.Command, strings.Join(args, " "), err)
	}
	defer tree.close()
	cmd.SysProcAttr = serverProcAttr()
	cmd.Cancel = func() error { return tree.signal(cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	if err = cmd.Start(); err == nil {
		if aerr := tree.attach(cmd.Process.Pid); aerr != nil {
			tree.signal(cmd.Process.Pid, syscall.SIGKILL)
		}
		err = cmd.Wait()
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s %s did not answer in time", s.Config.Command, strings.Join(args, " "))
	}
	line := firstLine(out.String())
	if err != nil {
		return "", fmt.Errorf("%s %s failed (%v): %s", s.Config.Command, strings.Join(args, " "), err, line)
	}
	if line == "" {
		return "", fmt.Errorf("%s %s printed nothing", s.Config.Command, strings.Join(args, " "))
	}
	return line, nil
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > maxVersionLength {
				l = l[:maxVersionLength] + "…"
			}
			return strings.ToValidUTF8(l, "\uFFFD")
		}
	}
	return ""
}

// versionFromInitialize starts the server, sends initialize and reads
// serverInfo from the answer; the server is then shut down and its group
// killed.
func versionFromInitialize(ctx context.Context, s Server, root string) (string, error) {
	p, err := startProcess(processSpec{path: s.Path, args: s.Config.Args, env: s.Env, dir: root, maxStderrBytes: 8 << 10})
	if err != nil {
		return "", fmt.Errorf("%s did not start: %v", s.Config.Command, err)
	}
	defer p.terminate(200 * time.Millisecond)
	codec := &frameCodec{maxMessageBytes: s.Config.MaxMessageBytes}
	if codec.maxMessageBytes <= 0 {
		codec.maxMessageBytes = core.DefaultMaxMessageBytes
	}
	uri := FileURI(root)
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          uri,
		"capabilities":     map[string]any{},
		"workspaceFolders": []map[string]string{{"uri": uri, "name": "workspace"}},
		"clientInfo":       map[string]string{"name": "lspseam doctor"},
	}
	if len(s.Config.InitializationOptions) > 0 {
		params["initializationOptions"] = json.RawMessage(s.Config.InitializationOptions)
	}
	type answer struct {
		version string
		err     error
	}
	done := make(chan answer, 1)
	go func() {
		if err := codec.WriteObject(p.stdin, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}); err != nil {
			done <- answer{err: fmt.Errorf("%s ended before answering initialize (writing to it: %v)", s.Config.Command, err)}
			return
		}
		r := bufio.NewReader(p.stdout)
		for {
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Result *struct {
					ServerInfo *struct {
						Name    string `json:"name"`
						Version string `json:"version"`
					} `json:"serverInfo"`
				} `json:"result"`
				Error *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := codec.ReadObject(r, &msg); err != nil {
				done <- answer{err: fmt.Errorf("%s ended before answering initialize: %v", s.Config.Command, err)}
				return
			}
			if msg.Method != "" || string(msg.ID) != "1" {
				continue // a notification or a request of its own
			}
			switch {
			case msg.Error != nil:
				done <- answer{err: fmt.Errorf("%s answered initialize with an error: %s", s.Config.Command, firstLine(msg.Error.Message))}
			case msg.Result == nil || msg.Result.ServerInfo == nil || msg.Result.ServerInfo.Version == "":
				done <- answer{err: fmt.Errorf("%s gives no version (no serverInfo.version in its initialize answer)", s.Config.Command)}
			default:
				done <- answer{version: firstLine(msg.Result.ServerInfo.Version)}
			}
			// Polite, then the group is killed by terminate.
			codec.WriteObject(p.stdin, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
			codec.WriteObject(p.stdin, map[string]any{"jsonrpc": "2.0", "method": "exit"})
			return
		}
	}()
	select {
	case a := <-done:
		return a.version, a.err
	case <-ctx.Done():
		return "", errors.New(s.Config.Command + " did not answer initialize in time")
	}
}
