package patterns

// goFixture is a small Go repository with known answers: ParseRecords
// and ReadEntries are one function under two sets of names (twins);
// Serve reads a query parameter and reaches os/exec through Prepare and
// Execute, ServeChecked validates it first (taint); Config flows through a constructor, a parameter, a
// return and a field (type_trace).
var goFixture = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"records/parse.go": `package records

import "strings"

// Record is one parsed line.
type Record struct {
	Key   string
	Value string
}

func clean(s string) string { return strings.TrimSpace(s) }

// ParseRecords splits key=value lines, skipping blanks and comments.
func ParseRecords(text string) ([]Record, error) {
	var out []Record
	for i, line := range strings.Split(text, "\n") {
		line = clean(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: no '=' in %q", i+1, line)
		}
		out = append(out, Record{Key: clean(k), Value: clean(v)})
	}
	return out, nil
}
`,
	"inventory/load.go": `package inventory

import (
	"strings"

	"example.com/shop/records"
)

// ReadEntries is ParseRecords again, renamed.
func ReadEntries(body string) ([]records.Record, error) {
	var entries []records.Record
	for n, row := range strings.Split(body, "\n") {
		row = clean(row)
		if row == "" || strings.HasPrefix(row, "#") {
			continue
		}
		name, amount, found := strings.Cut(row, "=")
		if !found {
			return nil, fmt.Errorf("row %d: missing '=' in %q", n+1, row)
		}
		entries = append(entries, records.Record{Key: clean(name), Value: clean(amount)})
	}
	return entries, nil
}

// Total sums the quantities of entries, which is not the same thing.
func Total(entries []records.Record) (int, error) {
	sum := 0
	for _, e := range entries {
		q, err := strconv.Atoi(e.Value)
		if err != nil {
			return 0, fmt.Errorf("entry %s: %w", e.Key, err)
		}
		if q < 0 {
			return 0, errors.New("negative quantity")
		}
		sum += q
	}
	return sum, nil
}

func clean(s string) string { return strings.TrimSpace(s) }
`,
	"api/handler.go": `package api

import (
	"net/http"

	"example.com/shop/jobs"
)

// Serve runs the report a request names.
func Serve(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("report")
	out, err := jobs.Prepare(name)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Write(out)
}

// Health answers probes.
func Health(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(200)
}
`,
	"api/safe.go": `package api

import (
	"net/http"
	"regexp"

	"example.com/shop/jobs"
)

var reportName = regexp.MustCompile("^[a-z]+$")

// ServeChecked runs a report whose name it validated first.
func ServeChecked(w http.ResponseWriter, r *http.Request) {
	name := r.FormValue("report")
	if !validName(name) {
		http.Error(w, "bad report", 400)
		return
	}
	jobs.Prepare(name)
}

func validName(s string) bool { return reportName.MatchString(s) }
`,
	"jobs/jobs.go": `package jobs

import "os/exec"

// Prepare builds the report command.
func Prepare(name string) ([]byte, error) {
	return Execute("report-" + name)
}

// Execute runs a shell command.
func Execute(cmd string) ([]byte, error) {
	return exec.Command("sh", "-c", cmd).Output()
}
`,
	"config/config.go": `package config

// Config is the shop's configuration.
type Config struct {
	Name string
	Port int
}

// Server holds a Config.
type Server struct {
	Cfg *Config
}

// NewConfig makes a Config.
func NewConfig(name string) *Config {
	return &Config{Name: name, Port: 8080}
}

// Describe reads a Config.
func Describe(c *Config) string {
	return c.Name
}

// Current returns the server's Config.
func (s *Server) Current() *Config { return s.Cfg }
`,
}
