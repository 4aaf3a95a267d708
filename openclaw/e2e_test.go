package openclaw_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var files = map[string]string{
	"app/auth.py":    "from app.session import Session\n\n\ndef login(user):\n    return Session(user)\n",
	"app/session.py": "class Session:\n    def __init__(self, user):\n        self.user = user\n",
	"app/routes.py":  "from app.auth import login\n\n\ndef handle(req):\n    return login(req.user)\n",
}

// writeRepo writes the fixture repository under dir and returns its path.
func writeRepo(dir string) string {
	repo := filepath.Join(dir, "repo")
	for p, c := range files {
		os.MkdirAll(filepath.Join(repo, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte(c), 0o644)
	}
	return repo
}

func build(t *testing.T, dir, pkg string) string {
	t.Helper()
	bin := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build %s: %v", pkg, err)
	}
	return bin
}

// TestBridgeEndToEnd runs the real daemon: it replaces a stale socket,
// creates it 0600, serves concurrent clients, and removes it on SIGTERM.
func TestBridgeEndToEnd(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	repo := writeRepo(tmp)
	daemon := build(t, tmp, "github.com/m1nd-go/m1nd/openclaw/cmd/m1nd-openclaw")
	client := build(t, tmp, "github.com/m1nd-go/m1nd/openclaw/cmd/m1nd-openclaw-client")
	sock := filepath.Join(tmp, "m1nd.sock")

	// A stale socket file left by a crashed daemon.
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()

	cmd := exec.Command(daemon, "--socket", sock, "--ingest", repo, "--default-agent-id", "oc-test")
	var stderr strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	deadline := time.Now().Add(time.Minute)
	for {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("daemon never listened: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", fi.Mode(), err)
	}

	// Concurrent clients, each on its own connection, several requests each.
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for c := 0; c < 8; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			conn, err := net.Dial("unix", sock)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			r := bufio.NewReader(conn)
			for i := 0; i < 10; i++ {
				id := fmt.Sprintf("c%d-%d", c, i)
				tool := []string{"m1nd.health", "activate", "impact", "m1nd.why"}[i%4]
				args := []map[string]any{{}, {"query": "login session"}, {"node_id": "file::app/auth.py"}, {"source": "file::app/routes.py", "target": "file::app/session.py"}}[i%4]
				req, _ := json.Marshal(map[string]any{"id": id, "tool": tool, "arguments": args})
				conn.Write(append(req, '\n'))
				line, err := r.ReadBytes('\n')
				if err != nil {
					errs <- err
					return
				}
				var resp struct {
					ID     string          `json:"id"`
					OK     bool            `json:"ok"`
					Result json.RawMessage `json:"result"`
					Error  json.RawMessage `json:"error"`
				}
				if err := json.Unmarshal(line, &resp); err != nil || resp.ID != id || !resp.OK {
					errs <- fmt.Errorf("%s %s: %s", id, tool, line)
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// The default agent was injected: health lists it.
	out, err := exec.Command(client, "--socket", sock, "--result-only", "health").Output()
	if err != nil || !strings.Contains(string(out), `"oc-test"`) {
		t.Errorf("client health: %v %s", err, out)
	}
	// A tool error exits 1 with the teaching error.
	badCmd := exec.Command(client, "--socket", sock, "impact", `{"node_id": "no/such/file.py"}`)
	bad, err := badCmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(bad), `"ok": false`) || !strings.Contains(string(bad), "hint") {
		t.Errorf("client on a bad call: %v %s", err, bad)
	}
	// Malformed line: an error response, the connection stays usable.
	conn, _ := net.Dial("unix", sock)
	conn.Write([]byte("{oops\n" + `{"id":9,"tool":"health"}` + "\n"))
	r := bufio.NewReader(conn)
	l1, _ := r.ReadBytes('\n')
	l2, _ := r.ReadBytes('\n')
	conn.Close()
	if !strings.Contains(string(l1), `"ok":false`) || !strings.Contains(string(l2), `"id":9,"ok":true`) {
		t.Errorf("malformed then valid: %s / %s", l1, l2)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("daemon exit: %v", err)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("socket not removed at exit: %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
