// Command fakelsp is a scripted fake language server for fault tests.
//
// It runs as a real process and speaks LSP (JSON-RPC with Content-Length
// framing) over stdin/stdout. A JSON script decides how it answers each
// method: reply, error, hang, crash, exit, or write broken framing. Every
// event is appended to a JSON-lines log so tests can assert what the server
// received. See README.md for the script and log formats.
//
// Usage:
//
//	fakelsp [--script FILE] [--log FILE] [--stdio]
//
// FAKELSP_SCRIPT and FAKELSP_LOG are used when the flags are absent.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	scriptPath := flag.String("script", "", "JSON script file (default: $FAKELSP_SCRIPT, else built-in defaults)")
	logPath := flag.String("log", "", "JSON-lines event log, appended (default: $FAKELSP_LOG, else no log)")
	flag.Bool("stdio", true, "accepted and ignored, like real servers")
	flag.Parse()
	if *scriptPath == "" {
		*scriptPath = os.Getenv("FAKELSP_SCRIPT")
	}
	if *logPath == "" {
		*logPath = os.Getenv("FAKELSP_LOG")
	}

	lg, err := openLog(*logPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakelsp: log: %v\n", err)
		os.Exit(2)
	}
	env := map[string]string{}
	for _, e := range os.Environ() {
		k, v, _ := strings.Cut(e, "=")
		env[k] = v
	}
	cwd, _ := os.Getwd()
	lg.event("start",
		kv("ppid", os.Getppid()),
		kv("args", os.Args),
		kv("cwd", cwd),
		kv("script", *scriptPath),
		kv("env", env))

	sc, err := loadScript(*scriptPath)
	if err != nil {
		lg.event("scriptError", kv("error", err.Error()))
		lg.event("exit", kv("code", 2), kv("reason", "bad script"))
		fmt.Fprintf(os.Stderr, "fakelsp: %v\n", err)
		os.Exit(2)
	}

	s := newServer(sc, lg, bufio.NewReaderSize(os.Stdin, 64*1024), os.Stdout, os.Stderr)

	// SIGTERM is always observed so that it can be logged. When it is not
	// ignored, the default disposition is restored and the signal re-raised,
	// so the process still dies by the signal as a real server would.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() {
		for sig := range sigs {
			lg.event("signal", kv("signal", sig.String()), kv("ignored", sc.IgnoreSigterm))
			if sc.IgnoreSigterm {
				continue
			}
			signal.Reset(syscall.SIGTERM)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Signal(syscall.SIGTERM)
			}
		}
	}()

	if sc.StderrAtStart > 0 {
		s.flood(sc.StderrAtStart)
	}
	s.run()
}
