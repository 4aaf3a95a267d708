package cli

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// termWidth returns the width of the terminal f is, or 0 when f is not a
// terminal. TIOCGWINSZ fails with ENOTTY on pipes, files and /dev/null, so
// it tells a terminal apart better than ModeCharDevice (which /dev/null is).
func termWidth(f *os.File) int {
	if f == nil {
		return 0
	}
	var ws struct{ Row, Col, X, Y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	if errno != 0 {
		return 0
	}
	if ws.Col == 0 {
		return 80 // a pty nobody sized yet
	}
	return int(ws.Col)
}

// colorAllowed reports whether escapes may go to a terminal: not when
// NO_COLOR is set (no-color.org) or the terminal is dumb.
func colorAllowed(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// style colours text when on is set.
type style struct{ on bool }

func (s style) wrap(code, t string) string {
	if !s.on || t == "" {
		return t
	}
	return "\x1b[" + code + "m" + t + "\x1b[0m"
}

func (s style) bold(t string) string   { return s.wrap("1", t) }
func (s style) dim(t string) string    { return s.wrap("2", t) }
func (s style) red(t string) string    { return s.wrap("31", t) }
func (s style) green(t string) string  { return s.wrap("32", t) }
func (s style) yellow(t string) string { return s.wrap("33", t) }

// plural returns "1 file" / "2 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
