package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/m1nd-go/m1nd/core/graph"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// httpFixture serves an ingested fixture repository over HTTP.
func httpFixture(t *testing.T, o HTTPOptions) (*tools.Dispatcher, *httptest.Server) {
	t.Helper()
	d := sdkDispatcher(t)
	repo := fixture.Write(t)
	if res := d.Call(context.Background(), "ingest", json.RawMessage(`{"agent_id":"t","path":`+jsonString(repo)+`}`), nil); res.IsError {
		t.Fatalf("ingest: %s", res.Text())
	}
	ts := httptest.NewServer(HTTPHandler(d, NewMCPServer(d, NewLog(t.Logf)), o))
	t.Cleanup(ts.Close)
	return d, ts
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// do sends a request with optional headers and returns status and body.
func do(t *testing.T, method, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The REST surface answers with the tools' own JSON: health, the tool
// list, a call by canonical and legacy name, graph stats; a teaching
// error is a 400 and an unknown tool a 404 naming the closest tools.
func TestRESTCallsTheTools(t *testing.T) {
	d, ts := httpFixture(t, HTTPOptions{})
	code, body := do(t, "GET", ts.URL+"/api/health", "", nil)
	if code != 200 || !strings.Contains(body, `"node_count"`) {
		t.Fatalf("health: %d %s", code, body)
	}
	code, body = do(t, "GET", ts.URL+"/api/tools", "", nil)
	var list struct{ Tools []mcp.Tool }
	if code != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list.Tools) != len(listedTools(d)) || len(list.Tools) < 40 {
		t.Fatalf("tools: %d, %d tools", code, len(list.Tools))
	}
	for _, name := range []string{"seek", "m1nd.seek"} {
		code, body = do(t, "POST", ts.URL+"/api/tools/"+name, `{"query":"where are passwords hashed","top_k":3}`, nil)
		if code != 200 || !strings.Contains(body, "backend/crypto.py") {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	code, body = do(t, "POST", ts.URL+"/api/tools/impact", `{}`, nil)
	if code != 400 || !strings.Contains(body, `"example"`) {
		t.Errorf("impact without node_id: %d %s", code, body)
	}
	code, body = do(t, "POST", ts.URL+"/api/tools/seekk", `{}`, nil)
	if code != 404 || !strings.Contains(body, "seek") {
		t.Errorf("unknown tool: %d %s", code, body)
	}
	code, body = do(t, "POST", ts.URL+"/api/tools/seek", `[1,2]`, nil)
	if code != 400 || !strings.Contains(body, "JSON object") {
		t.Errorf("a body that is no object: %d %s", code, body)
	}
	code, body = do(t, "GET", ts.URL+"/api/graph/stats", "", nil)
	if code != 200 || !strings.Contains(body, `"edge_count"`) || !strings.Contains(body, `"roots"`) {
		t.Errorf("stats: %d %s", code, body)
	}
	code, body = do(t, "GET", ts.URL+"/nothing", "", nil)
	if code != 404 || !strings.Contains(body, "/api/tools") {
		t.Errorf("unknown endpoint: %d %s", code, body)
	}
}

// What a browser page of another site, a rebinding DNS name or another
// machine could send is refused, and changes nothing; a path outside the
// roots is refused by the tools as it is over stdio.
func TestHTTPGuard(t *testing.T) {
	_, ts := httpFixture(t, HTTPOptions{MaxBody: 4096})
	learn := `{"query":"x","feedback":"correct","node_ids":["file::backend/auth.py"]}`
	for _, tc := range []struct {
		name   string
		method string
		path   string
		body   string
		header map[string]string
		code   int
		says   string
	}{
		{"foreign origin", "POST", "/api/tools/learn", learn, map[string]string{"Origin": "https://evil.example"}, 403, "another site"},
		{"foreign origin on /mcp", "POST", "/mcp", `{}`, map[string]string{"Origin": "http://evil.example"}, 403, "another site"},
		{"rebinding host", "GET", "/api/health", "", map[string]string{"Host": "evil.example:80"}, 403, "DNS rebinding"},
		{"oversized body", "POST", "/api/tools/seek", `{"query":"` + strings.Repeat("a", 5000) + `"}`, nil, 413, "more than"},
		{"path escape", "POST", "/api/tools/view", `{"file_path":"../../../../etc/passwd"}`, nil, 400, "error"},
		{"own origin", "GET", "/api/health", "", map[string]string{"Origin": ts.URL}, 200, "node_count"},
	} {
		code, body := do(t, tc.method, ts.URL+tc.path, tc.body, tc.header)
		if code != tc.code || !strings.Contains(body, tc.says) {
			t.Errorf("%s: %d %s", tc.name, code, body)
		}
		if strings.Contains(body, "root:x:0:0") {
			t.Errorf("%s: /etc/passwd read", tc.name)
		}
	}
}

// With a token every request must carry it; a listener beyond loopback
// needs one.
func TestHTTPToken(t *testing.T) {
	_, ts := httpFixture(t, HTTPOptions{Token: "s3cret"})
	for _, tc := range []struct {
		auth string
		code int
	}{{"", 401}, {"Bearer wrong", 401}, {"s3cret", 401}, {"Bearer s3cret", 200}} {
		h := map[string]string{}
		if tc.auth != "" {
			h["Authorization"] = tc.auth
		}
		if code, body := do(t, "GET", ts.URL+"/api/health", "", h); code != tc.code {
			t.Errorf("Authorization %q: %d %s", tc.auth, code, body)
		}
	}
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:1337", "", true}, {"[::1]:0", "", true}, {"localhost:1", "", true},
		{"0.0.0.0:1337", "", false}, {"0.0.0.0:1337", "t", true}, {"192.168.1.2:80", "", false}, {"1337", "", false},
	} {
		if err := CheckBind(tc.addr, tc.token); (err == nil) != tc.ok {
			t.Errorf("CheckBind(%q, %q) = %v", tc.addr, tc.token, err)
		}
	}
}

// An MCP client over streamable HTTP (the go-sdk's) lists and calls the
// tools, and sees what a stdio client of the same process learned.
func TestStreamableHTTPSharesTheSession(t *testing.T) {
	d, ts := httpFixture(t, HTTPOptions{})
	ctx := context.Background()
	stdio, _ := connectSDKClient(t, d)
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) < 40 {
		t.Fatalf("tools/list over HTTP: %v, %d tools", err, len(list.Tools))
	}
	call := func(cs *mcp.ClientSession, name string, args map[string]any) string {
		t.Helper()
		args["agent_id"] = "a"
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	before := call(cs, "perspective_list", map[string]any{})
	call(stdio, "perspective_start", map[string]any{"query": "session expiry"})
	after := call(cs, "perspective_list", map[string]any{})
	if before == after || !strings.Contains(after, "session expiry") {
		t.Errorf("the HTTP client does not see the stdio client's perspective:\nbefore %s\nafter %s", before, after)
	}
}

// ServeHTTP stops when its context ends.
func TestServeHTTPStops(t *testing.T) {
	d := sdkDispatcher(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, d, ln, HTTPOptions{}, nil) }()
	resp, err := http.Post("http://"+ln.Addr().String()+"/api/tools/health", "application/json", bytes.NewReader(nil))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health: %v %v", err, resp)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
}

// sseReader reads Server-Sent Events from GET /api/events.
type sseReader struct {
	resp *http.Response
	sc   *bufio.Scanner
}

func openEvents(t *testing.T, url, lastID string) *sseReader {
	t.Helper()
	req, _ := http.NewRequest("GET", url+"/api/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %v %v", err, resp)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sseReader{resp: resp, sc: bufio.NewScanner(resp.Body)}
}

// next returns the next event (heartbeats skipped).
func (s *sseReader) next(t *testing.T) Event {
	t.Helper()
	var ev Event
	for s.sc.Scan() {
		line := s.sc.Text()
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("event data %q: %v", data, err)
			}
		}
		if line == "" && ev.ID != 0 {
			return ev
		}
	}
	t.Fatalf("event stream ended: %v", s.sc.Err())
	return ev
}

// until reads events until one of type typ for tool arrives.
func (s *sseReader) until(t *testing.T, typ, tool string) (Event, []Event) {
	t.Helper()
	var seen []Event
	for {
		ev := s.next(t)
		seen = append(seen, ev)
		if m, _ := ev.Data.(map[string]any); ev.Type == typ && m["tool"] == tool {
			return ev, seen
		}
	}
}

// GET /api/events streams every call's summary, from REST and MCP
// clients alike, and an ingest's progress; a client that reconnects with
// Last-Event-ID gets what it missed.
func TestEventsStreamCallsAndProgress(t *testing.T) {
	d, ts := httpFixture(t, HTTPOptions{})
	stdio, _ := connectSDKClient(t, d)
	events := openEvents(t, ts.URL, "")

	do(t, "POST", ts.URL+"/api/tools/seek", `{"query":"password hashing","agent_id":"rest-agent"}`, nil)
	ev, _ := events.until(t, "tool_call", "seek")
	m := ev.Data.(map[string]any)
	if m["transport"] != "rest" || m["agent_id"] != "rest-agent" || m["is_error"] != false || !strings.Contains(m["summary"].(string), "results") {
		t.Errorf("seek event: %+v", m)
	}
	if _, err := stdio.CallTool(context.Background(), &mcp.CallToolParams{Name: "impact", Arguments: map[string]any{"agent_id": "mcp-agent"}}); err != nil {
		t.Fatal(err)
	}
	ev, _ = events.until(t, "tool_call", "impact")
	if m := ev.Data.(map[string]any); m["transport"] != "mcp" || m["is_error"] != true {
		t.Errorf("impact event: %+v", m)
	}
	last := ev.ID

	repo := fixture.Write(t)
	do(t, "POST", ts.URL+"/api/tools/ingest", `{"path":`+jsonString(repo)+`}`, nil)
	_, seen := events.until(t, "tool_call", "ingest")
	var progress int
	for _, e := range seen {
		if m, _ := e.Data.(map[string]any); e.Type == "progress" && m["tool"] == "ingest" {
			progress++
		}
	}
	if progress == 0 {
		t.Errorf("no ingest progress among %d events", len(seen))
	}

	again := openEvents(t, ts.URL, strconv.FormatUint(last, 10))
	if ev := again.next(t); ev.ID != last+1 {
		t.Errorf("resumed at event %d, want %d", ev.ID, last+1)
	}
}

// The graph endpoints: a node's neighbourhood and an activation as nodes
// with the edges among them, bounded; the whole graph streamed, bounded.
func TestGraphEndpoints(t *testing.T) {
	d, ts := httpFixture(t, HTTPOptions{})
	g := d.Session.Current().Graph
	get := func(path string, want int) Subgraph {
		t.Helper()
		code, body := do(t, "GET", ts.URL+path, "", nil)
		var sg Subgraph
		if code != want || (want == 200 && json.Unmarshal([]byte(body), &sg) != nil) {
			t.Fatalf("%s: %d %s", path, code, body)
		}
		return sg
	}
	sg := get("/api/graph/subgraph?node=file::backend/session.py&hops=1&top_k=50", 200)
	if len(sg.Nodes) < 3 || sg.Nodes[0].ID != "file::backend/session.py" || sg.Nodes[0].Hop != 0 || sg.Truncated {
		t.Fatalf("neighbourhood: %+v", sg.Nodes)
	}
	id, _ := g.Lookup("file::backend/session.py")
	if want := len(uniqueNeighbours(g, id)) + 1; len(sg.Nodes) != want {
		t.Errorf("neighbourhood of session.py: %d nodes, want it and its %d neighbours", len(sg.Nodes), want-1)
	}
	in := map[string]bool{}
	for _, n := range sg.Nodes {
		in[n.ID] = true
		if n.Hop > 1 || n.Type == "" {
			t.Errorf("node %+v", n)
		}
	}
	if len(sg.Edges) == 0 {
		t.Error("no edges")
	}
	for _, e := range sg.Edges {
		if !in[e.Source] || !in[e.Target] {
			t.Errorf("edge %+v leaves the subgraph", e)
		}
	}
	if sg := get("/api/graph/subgraph?node=file::backend/session.py&hops=3&top_k=2", 200); len(sg.Nodes) != 2 || !sg.Truncated {
		t.Errorf("top_k 2: %d nodes, truncated %v", len(sg.Nodes), sg.Truncated)
	}
	if sg := get("/api/graph/subgraph?query=password+hashing&top_k=10", 200); len(sg.Nodes) == 0 || sg.Nodes[0].Activation <= 0 {
		t.Errorf("activation subgraph: %+v", sg.Nodes)
	}
	get("/api/graph/subgraph?node=file::nope.py", 404)
	get("/api/graph/subgraph?query=x&top_k=0", 400)
	get("/api/graph/subgraph", 400)

	code, body := do(t, "GET", ts.URL+"/api/graph/snapshot", "", nil)
	var snap struct {
		NodeCount, EdgeCount int
		Truncated            bool
		Nodes                []GraphNode
		Edges                []GraphEdge
	}
	if code != 200 || json.Unmarshal([]byte(body), &snap) != nil || len(snap.Nodes) != g.NumNodes() || snap.Truncated || len(snap.Edges) == 0 {
		t.Fatalf("snapshot: %d, %d nodes of %d", code, len(snap.Nodes), g.NumNodes())
	}
	code, body = do(t, "GET", ts.URL+"/api/graph/snapshot?limit=5", "", nil)
	if json.Unmarshal([]byte(body), &snap) != nil || len(snap.Nodes) != 5 || !snap.Truncated {
		t.Errorf("snapshot limit 5: %d %d nodes", code, len(snap.Nodes))
	}
}

func uniqueNeighbours(g *graph.Graph, id graph.NodeID) map[graph.NodeID]bool {
	m := map[graph.NodeID]bool{}
	for _, n := range g.Neighbors(id) {
		if n.Node != id {
			m[n.Node] = true
		}
	}
	return m
}

// A body that stops arriving ends its request (the call never runs), while
// a call and an event stream that outlive the body's limit are not cut:
// the limit is on the body, and lifted once it has been read.
func TestHTTPBodyTimeLimit(t *testing.T) {
	_, ts := httpFixture(t, HTTPOptions{BodyTimeout: 300 * time.Millisecond})
	events := openEvents(t, ts.URL, "")
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/tools/seek HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"query\":")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("a stalled body: no answer (%v)", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "timeout") {
		t.Errorf("a stalled body: %d %s", resp.StatusCode, body)
	}
	time.Sleep(400 * time.Millisecond) // past the body limit: the stream must live on
	if code, out := do(t, "POST", ts.URL+"/api/tools/seek", `{"query":"password hashing"}`, nil); code != http.StatusOK {
		t.Fatalf("seek after the stall: %d %s", code, out)
	}
	if ev, _ := events.until(t, "tool_call", "seek"); ev.Data.(map[string]any)["is_error"] != false {
		t.Errorf("the event stream after the body limit: %+v", ev)
	}
}
