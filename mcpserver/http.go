package mcpserver

import (
	"cmp"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/ui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure serve mode: MCP over streamable HTTP at /mcp and
// the REST surface under /api, on one listener (ServeHTTP).
type HTTPOptions struct {
	// Token, when set, must arrive with every request as
	// "Authorization: Bearer <token>". A listener on a non-loopback
	// address refuses to start without one (CheckBind).
	Token string
	// MaxBody bounds a request body (0: MaxHTTPBody).
	MaxBody int64
	// BodyTimeout bounds the time a client takes to send a request body
	// (0: HTTPBodyTimeout); a body still arriving then ends the request.
	BodyTimeout time.Duration
	// CallTimeout bounds a tool call made over HTTP, REST or /mcp (0:
	// HTTPCallTimeout); the call is cancelled then and answers so.
	CallTimeout time.Duration
}

// The HTTP time limits. A body is small and sent at once; a call may be an
// ingest of a large tree. Event streams (GET /api/events, GET /mcp) have
// no limit: they last as long as their client.
const (
	HTTPBodyTimeout = 30 * time.Second
	HTTPCallTimeout = 15 * time.Minute
)

// MaxHTTPBody bounds a request body: a tool call's arguments are small
// (strings are capped at 8 KiB, apply_batch's contents excepted).
const MaxHTTPBody = 1 << 20

// httpAgent is the agent_id of a REST call that names none.
const httpAgent = "http"

// CheckBind refuses a listening address reachable from other machines
// without a token: the graph holds the repository's code, and the tools
// write files.
func CheckBind(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--bind/--port make %q, not host:port: %v (e.g. --bind 127.0.0.1 --port 1337)", addr, err)
	}
	if isLoopbackHost(host) || token != "" {
		return nil
	}
	return fmt.Errorf("--bind %s reaches beyond this machine, and the tools read and write the repository: give a token (--token or M1ND_HTTP_TOKEN; clients send \"Authorization: Bearer <token>\"), or bind 127.0.0.1", host)
}

// ServeHTTP serves MCP (streamable HTTP, /mcp) and the REST API (/api) on
// ln over d until ctx ends; then it stops taking requests and gives the
// ones in flight StopWait to finish.
func ServeHTTP(ctx context.Context, d *tools.Dispatcher, ln net.Listener, o HTTPOptions, log *Log) error {
	if log == nil {
		log = NewLog(d.Session.Logf)
	}
	srv := &http.Server{
		Handler: HTTPHandler(d, NewMCPServer(d, log), o),
		// No ReadTimeout: its deadline would end the event streams (/mcp's
		// and /api/events') after it; bodies are bounded by size instead.
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), StopWait)
	defer cancel()
	srv.Shutdown(stop)
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// HTTPHandler is serve mode's handler: /mcp for MCP clients, /api for
// REST, every request checked first (guard). srv serves the MCP sessions:
// they share d, so they see what stdio clients learn.
func HTTPHandler(d *tools.Dispatcher, srv *mcp.Server, o HTTPOptions) http.Handler {
	if o.MaxBody <= 0 {
		o.MaxBody = MaxHTTPBody
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) {
		writeResult(w, d.Call(r.Context(), "health", json.RawMessage(`{"agent_id":"`+httpAgent+`"}`), nil))
	})
	mux.HandleFunc("GET /api/tools", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, struct {
			Tools []leanTool `json:"tools"`
		}{listedTools(d)})
	})
	mux.HandleFunc("POST /api/tools/{name}", func(w http.ResponseWriter, r *http.Request) {
		args, err := restArgs(r)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, httpError(err.Error(), `{"query": "where is the session stored", "top_k": 5}`))
			return
		}
		name := r.PathValue("name")
		t, known := d.Registry.Lookup(name)
		if !known {
			writeText(w, http.StatusNotFound, d.Call(r.Context(), name, args, nil).Text())
			return
		}
		writeResult(w, EventsOf(d).Observe(t.Name, "rest", args, nil, func(p tools.Progress) tools.Result {
			return d.Call(r.Context(), t.Name, args, p)
		}))
	})
	mux.HandleFunc("GET /api/graph/subgraph", func(w http.ResponseWriter, r *http.Request) {
		serveSubgraph(d, w, r)
	})
	mux.HandleFunc("GET /api/graph/snapshot", func(w http.ResponseWriter, r *http.Request) {
		serveSnapshot(d, w, r)
	})
	mux.HandleFunc("GET /api/events", func(w http.ResponseWriter, r *http.Request) {
		streamEvents(w, r, EventsOf(d))
	})
	mux.HandleFunc("GET /api/graph/stats", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, graphStats(d))
	})
	assets := http.FileServerFS(ui.FS())
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { serveUI(assets, w, r) })
	files, _ := fs.ReadDir(ui.FS(), ".")
	for _, f := range files {
		mux.HandleFunc("GET /"+f.Name(), func(w http.ResponseWriter, r *http.Request) { serveUI(assets, w, r) })
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, httpError("no such endpoint: "+r.Method+" "+r.URL.Path,
			"POST /mcp (MCP), GET /api/health, GET /api/tools, POST /api/tools/{name}, GET /api/graph/stats, /api/graph/subgraph?query=, /api/graph/snapshot, GET /api/events"))
	})
	return guard(mux, o)
}

// serveUI serves the page's files with a policy that lets them load
// nothing from elsewhere.
func serveUI(assets http.Handler, w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	assets.ServeHTTP(w, r)
}

// guard refuses what a browser page or another machine could send the
// server unasked: a Host that is not this server's (DNS rebinding), an
// Origin of another site, a missing or wrong token, an oversized body.
func guard(next http.Handler, o HTTPOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o.Token == "" && !isLoopbackHost(hostOnly(r.Host)) {
			writeJSON(w, http.StatusForbidden, httpError("Host "+r.Host+" is not this server's: without a token only localhost, 127.0.0.1 and [::1] are served (a page on another site must not reach the tools through DNS rebinding)", "http://127.0.0.1:1337/api/health"))
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
			writeJSON(w, http.StatusForbidden, httpError("Origin "+origin+" is another site's: serve mode answers pages it serves itself and clients that send no Origin", "curl http://127.0.0.1:1337/api/health"))
			return
		}
		if o.Token != "" && !tokenMatches(r.Header.Get("Authorization"), o.Token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="m1nd"`)
			writeJSON(w, http.StatusUnauthorized, httpError("missing or wrong token", `curl -H "Authorization: Bearer $M1ND_HTTP_TOKEN" http://HOST:1337/api/health`))
			return
		}
		if r.ContentLength > o.MaxBody {
			writeJSON(w, http.StatusRequestEntityTooLarge, httpError(fmt.Sprintf("the body is %d bytes, more than the %d a request may carry", r.ContentLength, o.MaxBody), "split the work into several calls"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, o.MaxBody)
		if r.Method == http.MethodPost {
			r = limitTime(w, r, o)
		}
		next.ServeHTTP(w, r)
	})
}

// limitTime gives a POST (a tool call, REST or MCP) its time limits: its
// body must arrive within BodyTimeout (a read deadline on the connection,
// lifted once the body has been read, so that a streamed answer is not
// cut), and the call must end within CallTimeout (its context's deadline).
func limitTime(w http.ResponseWriter, r *http.Request, o HTTPOptions) *http.Request {
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(cmp.Or(o.BodyTimeout, HTTPBodyTimeout))) == nil {
		r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
	}
	ctx, cancel := context.WithTimeout(r.Context(), cmp.Or(o.CallTimeout, HTTPCallTimeout))
	context.AfterFunc(r.Context(), cancel) // released with the request
	return r.WithContext(ctx)
}

// deadlineBody lifts the connection's read deadline once the body has
// been read to its end.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// eventHeartbeat keeps an idle event stream's connection open through
// proxies and tells the server when its client has gone.
const eventHeartbeat = 15 * time.Second

// streamEvents serves GET /api/events as Server-Sent Events: first what
// the client missed (after its Last-Event-ID, from the replay buffer),
// then each event as it happens, until the client or the server leaves.
func streamEvents(w http.ResponseWriter, r *http.Request, e *Events) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeJSON(w, http.StatusInternalServerError, httpError("this connection cannot stream", "GET /api/events over HTTP/1.1"))
		return
	}
	after, _ := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64)
	missed, ch, cancel := e.Subscribe(after)
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(ev Event) bool {
		b, _ := json.Marshal(ev)
		_, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.ID, ev.Type, b)
		return err == nil
	}
	for _, ev := range missed {
		if !send(ev) {
			return
		}
	}
	flusher.Flush()
	beat := time.NewTicker(eventHeartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case ev := <-ch:
			if !send(ev) {
				return
			}
		case <-beat.C:
			if _, err := io.WriteString(w, ": heartbeat\n\n"); err != nil {
				return
			}
		}
		flusher.Flush()
	}
}

// restArgs reads a REST call's body: a JSON object of the tool's
// arguments (empty: none); agent_id defaults to "http".
func restArgs(r *http.Request) (json.RawMessage, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, fmt.Errorf("the body is more than the %d bytes a request may carry", tooBig.Limit)
		}
		return nil, fmt.Errorf("reading the body: %v", err)
	}
	args := map[string]json.RawMessage{}
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := json.Unmarshal(body, &args); err != nil {
			return nil, fmt.Errorf("the body must be a JSON object of the tool's arguments: %v", err)
		}
	}
	if _, ok := args["agent_id"]; !ok {
		args["agent_id"] = json.RawMessage(`"` + httpAgent + `"`)
	}
	return json.Marshal(args)
}

// writeResult answers with a tool's JSON: 200, or 400 for its teaching
// error.
func writeResult(w http.ResponseWriter, res tools.Result) {
	code := http.StatusOK
	if res.IsError {
		code = http.StatusBadRequest
	}
	writeText(w, code, res.Text())
}

func writeText(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	io.WriteString(w, text)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// httpError is a refused request's answer, shaped like a tool's teaching
// error.
func httpError(msg, example string) map[string]string {
	return map[string]string{"error": msg, "example": example}
}

// listedTools is what tools/list offers, for GET /api/tools, written as
// tools/list writes it.
func listedTools(d *tools.Dispatcher) []leanTool {
	offered := offeredTools(d)
	var out []leanTool
	for _, t := range d.Registry.All() {
		if offered(t) {
			out = append(out, leanTool{mcpTool(t, d.Session.Config().OutputSchemas)})
		}
	}
	return out
}

// GraphStats is GET /api/graph/stats: the graph's size, domain and roots
// with their namespaces.
type GraphStats struct {
	NodeCount int         `json:"node_count"`
	EdgeCount int         `json:"edge_count"`
	Domain    string      `json:"domain"`
	Roots     []StatsRoot `json:"roots"`
}

type StatsRoot struct {
	Path      string `json:"path"`
	Namespace string `json:"namespace"`
}

func graphStats(d *tools.Dispatcher) GraphStats {
	snap := d.Session.Current()
	st := GraphStats{NodeCount: snap.Graph.NumNodes(), EdgeCount: snap.Graph.NumEdges(), Domain: d.Session.Config().Domain, Roots: []StatsRoot{}}
	for _, r := range snap.Roots {
		st.Roots = append(st.Roots, StatsRoot{Path: r.Path, Namespace: r.Namespace})
	}
	return st
}

// tokenMatches compares a bearer token in constant time.
func tokenMatches(header, token string) bool {
	got, ok := strings.CutPrefix(header, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// sameOrigin reports whether origin is the server's own (scheme and the
// Host the request was sent to).
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
