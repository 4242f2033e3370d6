//go:build !linux && !darwin

package main

import (
	"errors"
	"os"
	"syscall"
)

func tryLockFile(string) (*os.File, error) {
	return nil, errors.New("the daemon needs Linux or macOS")
}

func daemonProcAttr() *syscall.SysProcAttr { return nil }
