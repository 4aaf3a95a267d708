package scan

import "testing"

func TestGoErrorHandling(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "discarded", file: "a.go", pattern: ErrorHandling, src: `
package a

func load() (int, error) { return 0, nil }

func f(s string) {
	n, _ := load()
	v, _ := strconv.Atoi(s)
	w, _ := other.Thing(s)
	x, _ := m.Load(s)
	ctx, _ := context.WithTimeout(c, 1)
	y, ok := m[s]
	_, _ = n, v
}
`, want: []string{"6 go/discarded-error", "7 go/discarded-error", "8 go/discarded-error"}},
		{name: "checked errors are fine", file: "a.go", pattern: ErrorHandling, src: `
package a

func f(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("parse %q: %w", s, err)
	}
	_ = v
	return nil
}
`},
		{name: "unchecked call", file: "a.go", pattern: ErrorHandling, src: `
package a

func save() error { return nil }
func (c *C) Flush() error { return nil }

func f() {
	save()
	c.Flush()
	os.Remove("x")
	fmt.Println("ok")
	f.Close()
	defer save()
	if err := save(); err != nil {
		panic(err)
	}
}
`, want: []string{"7 go/unchecked-error", "8 go/unchecked-error", "9 go/unchecked-error"}},
		{name: "empty error branch", file: "a.go", pattern: ErrorHandling, src: `
package a

func f() {
	if err := g(); err != nil {
	}
	if err != nil {
		// nothing to do: best effort
	}
	if err != nil {
		log.Print(err)
	}
	if x != nil {
	}
}
`, want: []string{"4 go/empty-error-branch", "6 go/empty-error-branch"}},
		{name: "unwrapped return", file: "a.go", pattern: ErrorHandling, src: `
package a

func f() error {
	b, err := os.ReadFile("x")
	if err != nil {
		return err
	}
	if err := local(); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}
`, want: []string{"6 go/unwrapped-error"}},
	})
}

func TestGoResourceCleanup(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "unclosed", file: "a.go", pattern: ResourceCleanup, src: `
package a

func leak() {
	f, err := os.Open("x")
	if err != nil {
		return
	}
	r := bufio.NewReader(f)
	_ = r
}

func closed() error {
	f, err := os.Open("x")
	if err != nil {
		return err
	}
	defer f.Close()
	return nil
}

func returned() (*os.File, error) {
	f, err := os.Create("x")
	return f, err
}

func handed() {
	c, _ := net.Dial("tcp", "x")
	go serve(c)
}

func body() {
	resp, err := http.Get("http://x")
	if err != nil {
		return
	}
	io.Copy(io.Discard, resp.Body)
}

func bodyClosed() {
	resp, _ := http.Get("http://x")
	defer resp.Body.Close()
}

func stored(s *S) {
	s.f, _ = os.Open("x")
	f, _ := os.Open("y")
	s.g = f
}
`, want: []string{"4 go/unclosed-resource", "32 go/unclosed-resource"}},
		{name: "locks", file: "a.go", pattern: ResourceCleanup, src: `
package a

func deferred() {
	mu.Lock()
	defer mu.Unlock()
}

func early(x int) int {
	s.mu.Lock()
	if x > 0 {
		return 1
	}
	s.mu.Unlock()
	return 0
}

func unlockedFirst(x int) int {
	mu.Lock()
	if x > 0 {
		mu.Unlock()
		return 1
	}
	mu.Unlock()
	return 0
}

func never() {
	mu.RLock()
	read()
}

func (c *C) lockConn() {
	c.mu.Lock()
}

func closure() {
	mu.Lock()
	defer func() { mu.Unlock() }()
}
`, want: []string{"9 go/lock-not-released", "28 go/lock-not-released"}},
		{name: "cancel", file: "a.go", pattern: ResourceCleanup, src: `
package a

func f() {
	ctx, _ := context.WithTimeout(parent, time.Second)
	ctx2, cancel := context.WithCancel(parent)
	ctx3, stop := context.WithCancel(parent)
	defer stop()
	use(ctx, ctx2, ctx3)
}
`, want: []string{"4 go/cancel-not-called", "5 go/cancel-not-called"}},
	})
}

func TestGoConcurrency(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "loop variable before 1.22", file: "a.go", pattern: Concurrency, opt: Options{GoVersion: "1.21"}, src: `
package a

func f(xs []int) {
	for _, x := range xs {
		go func() { use(x) }()
	}
	for i := 0; i < 3; i++ {
		go func(i int) { use(i) }(i)
	}
}
`, want: []string{"5 go/loop-variable-capture"}},
		{name: "loop variable from 1.22", file: "a.go", pattern: Concurrency, opt: Options{GoVersion: "1.22"}, src: `
package a

func f(xs []int) {
	for _, x := range xs {
		go func() { use(x) }()
	}
}
`},
		{name: "shared writes", file: "a.go", pattern: Concurrency, src: `
package a

func f(xs []int) int {
	total := 0
	m := make(map[int]bool)
	results := make([]int, len(xs))
	for i, x := range xs {
		go func() {
			total += x
			results[i] = x
			m[x] = true
			local := 1
			local++
		}()
	}
	go func() {
		mu.Lock()
		total++
		mu.Unlock()
	}()
	go func() {
		err = g()
		close(done)
	}()
	<-done
	use(err)
	go func() {
		owned = g()
	}()
	return total
}
`, want: []string{"8 go/loop-variable-capture", "9 go/unsynchronized-write", "11 go/unsynchronized-write", "22 go/unsynchronized-write"}},
		{name: "waitgroup add", file: "a.go", pattern: Concurrency, src: `
package a

func f() {
	var wg sync.WaitGroup
	go func() {
		wg.Add(1)
		defer wg.Done()
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		n.Add(1)
	}()
	wg.Wait()
}
`, want: []string{"6 go/waitgroup-add-in-goroutine"}},
		{name: "lock copies", file: "a.go", pattern: Concurrency, src: `
package a

type S struct {
	mu sync.Mutex
	n  int
}

type P struct{ mu *sync.Mutex }

func (s S) Get() int { return s.n }
func (s *S) Set(n int) { s.n = n }
func (p P) Get() {}
func work(wg sync.WaitGroup) {}
func fine(wg *sync.WaitGroup) {}
`, want: []string{"10 go/lock-copied", "13 go/lock-copied"}},
	})
}

func TestGoStateMutation(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "globals", file: "a.go", pattern: StateMutation, src: `
package a

var cache = map[string]int{}
var count int
var ErrX = errors.New("x")

func init() { count = 1 }

func put(k string) {
	cache[k] = 1
	cache[k+"x"] = 2
	count++
}

func shadow() {
	count := 0
	count++
}

func guarded() {
	mu.Lock()
	defer mu.Unlock()
	count = 2
}
`, want: []string{"10 go/mutable-global", "12 go/mutable-global", "23 go/mutable-global"}},
	})
}

func TestGoAPISurface(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "exports", file: "a.go", pattern: APISurface, src: `
package a

// Documented does things.
func Documented() {}

func Undocumented() *impl { return nil }

type impl struct{}

func (i *impl) Hidden() {}

// T is a type.
type T struct{}

func (t T) Method() {}

func private() {}

type (
	// Grouped is documented.
	Grouped int
	Bare    int
)
`, want: []string{"6 go/exported-returns-unexported", "6 go/undocumented-export", "15 go/undocumented-export", "22 go/undocumented-export"}},
		{name: "main and internal are not API", file: "internal/x/a.go", pattern: APISurface, src: `
package x

func Exported() {}
`},
	})
}

func TestGoTestCoverage(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "exported functions", file: "a.go", pattern: TestCoverage, src: `
package a

func Exported() {}
func unexported() {}
func (s *Server) Serve() {}
func (c *conn) Serve() {}
`, want: []string{"3 go/untested-export", "5 go/untested-export"}},
		{name: "not in tests", file: "a_test.go", pattern: TestCoverage, src: `
package a

func TestX(t *testing.T) {}
`},
	})
}

func TestGoAuthBoundary(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "unguarded next to guarded", file: "routes.go", pattern: AuthBoundary, src: `
package a

func routes(mux *http.ServeMux) {
	mux.HandleFunc("/admin/users", requireAuth(listUsers))
	mux.HandleFunc("POST /admin/delete", deleteUser)
	mux.HandleFunc("/health", health)
	mux.Handle("/orders", orders)
	mux.HandleFunc("/me", me)
}

func me(w http.ResponseWriter, r *http.Request) {
	u := currentUser(r)
	_ = u
}
`, want: []string{"5 go/route-without-auth", "7 go/route-without-auth"}},
		{name: "router middleware", file: "routes.go", pattern: AuthBoundary, src: `
package a

func routes(r chi.Router) {
	r.Use(authMiddleware)
	r.Get("/items", list)
	r.Post("/items", create)
}
`},
		{name: "client calls are not routes", file: "c.go", pattern: AuthBoundary, src: `
package a

func f() {
	http.Get("https://example.com/x")
	m.Get("/key")
}
`},
	})
}

func TestGoDependencyInjection(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "hardwired", file: "svc.go", pattern: DependencyInjection, src: `
package svc

func Fetch(url string) error {
	resp, err := http.Get(url)
	_ = os.Getenv("TOKEN")
	http.DefaultClient.Do(req)
	return err
}

func NewStore() *Store {
	db, _ := sql.Open("pg", os.Getenv("DSN"))
	return &Store{db}
}

func (s *Store) Query(c *http.Client) { c.Get("x") }
`, want: []string{"4 go/hardwired-dependency", "5 go/hardwired-dependency", "6 go/hardwired-dependency"}},
		{name: "package main wires", file: "main.go", pattern: DependencyInjection, src: `
package main

func run() { http.Get("x") }
`},
	})
}

func TestGoSeverityInTests(t *testing.T) {
	src := []byte("package a\n\nfunc f() {\n\tif err != nil {\n\t}\n}\n")
	prod, _ := File("a.go", src, Options{Patterns: []string{ErrorHandling}})
	test, _ := File("a_test.go", src, Options{Patterns: []string{ErrorHandling}})
	if len(prod) != 1 || len(test) != 1 || !test[0].InTest || test[0].Severity*2 > prod[0].Severity+0.011 {
		t.Fatalf("prod %+v\ntest %+v", prod, test)
	}
}
