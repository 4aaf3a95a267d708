package openclaw_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/openclaw"
)

// nofileEnv makes the test binary a launcher (see TestMain).
const nofileEnv = "M1ND_TEST_NOFILE"

// TestMain doubles as a launcher: with nofileEnv set, the test binary
// lowers RLIMIT_NOFILE, soft and hard (the Go runtime of the child raises
// the soft limit to the hard one), and execs its arguments.
func TestMain(m *testing.M) {
	if n := os.Getenv(nofileEnv); n != "" {
		os.Exit(execWithNofile(n, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func execWithNofile(n string, argv []string) int {
	v, err := strconv.ParseUint(n, 10, 64)
	if err == nil {
		err = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: v, Max: v})
	}
	if err == nil {
		err = syscall.Exec(argv[0], argv, os.Environ())
	}
	fmt.Fprintln(os.Stderr, "nofile launcher:", err)
	return 2
}

// lockedBuffer collects a daemon's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// hangGuard bounds each wait so a bug fails the test instead of hanging it.
const hangGuard = 2 * time.Minute

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited too long for %s", what)
		}
	}
}

// TestBridgeSurvivesFDExhaustion runs the real daemon with 64 file
// descriptors and opens more connections than it can accept. Accept fails
// with EMFILE; the daemon logs it and retries instead of shutting down,
// and once clients hang up it serves the connections that waited.
func TestBridgeSurvivesFDExhaustion(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	repo := writeRepo(tmp)
	daemon := build(t, tmp, "github.com/m1nd-go/m1nd/openclaw/cmd/m1nd-openclaw")
	sock := filepath.Join(tmp, "m1nd.sock")
	cmd := exec.Command(os.Args[0], daemon, "--socket", sock, "--ingest", repo, "--max-connections", "1000", "--idle-timeout", "1h")
	cmd.Env = append(os.Environ(), nofileEnv+"=64")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() { cmd.Process.Kill() }()
	waitUntil(t, "the daemon to listen", func() bool { return strings.Contains(stderr.String(), "listening on") })

	const clients = 120
	answered := make(chan int, clients)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range clients {
		conn, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conn.SetDeadline(time.Now().Add(hangGuard))
		wg.Go(func() {
			defer conn.Close()
			fmt.Fprintf(conn, `{"id":%d,"tool":"health"}`+"\n", i)
			line, err := bufio.NewReader(conn).ReadString('\n')
			if !strings.HasPrefix(line, fmt.Sprintf(`{"id":%d,"ok":true`, i)) {
				t.Errorf("client %d: %.200s %v", i, line, err)
				return
			}
			answered <- i
			<-release // hold the connection until the daemon has run out
		})
	}
	waitUntil(t, "accept to run out of descriptors", func() bool { return strings.Contains(stderr.String(), "too many open files") })
	if n := len(answered); n == clients {
		t.Fatalf("all %d clients answered: the descriptor limit was never reached", n)
	}
	close(release)
	wg.Wait()
	if n := len(answered); n != clients {
		t.Errorf("%d of %d clients answered", n, clients)
	}

	select {
	case err := <-exited:
		t.Fatalf("daemon exited: %v\n%s", err, stderr.String())
	default:
	}
	if resp, _, err := openclaw.Call(sock, "health", nil, hangGuard); err != nil || !resp.OK {
		t.Errorf("after the exhaustion: %+v %v", resp, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Errorf("daemon exit: %v\n%s", err, stderr.String())
	}
}
