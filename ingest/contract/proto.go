package contract

import (
	"regexp"
	"slices"
	"strings"
)

// Service is a gRPC service a .proto file declares.
type Service struct {
	Package string   `json:"package,omitempty"`
	Name    string   `json:"name"`
	RPCs    []string `json:"rpcs"`
	Line    int      `json:"line"`
}

// FullName is the service's name as gRPC routes it: "users.v1.Users".
func (s Service) FullName() string {
	if s.Package == "" {
		return s.Name
	}
	return s.Package + "." + s.Name
}

var (
	protoPackage = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)
	protoService = regexp.MustCompile(`\bservice\s+(\w+)\s*\{`)
	protoRPC     = regexp.MustCompile(`\brpc\s+(\w+)\s*\(`)
)

func protoServices(t *text) []Service {
	pkg := ""
	if m := protoPackage.FindStringSubmatch(t.src); m != nil {
		pkg = m[1]
	}
	var out []Service
	for _, m := range protoService.FindAllStringSubmatchIndex(t.src, -1) {
		end := t.closeBrace(m[1] - 1)
		if end < 0 {
			end = len(t.src)
		}
		s := Service{Package: pkg, Name: t.src[m[2]:m[3]], Line: t.line(m[2]), RPCs: []string{}}
		for _, r := range protoRPC.FindAllStringSubmatch(t.src[m[1]:end], -1) {
			s.RPCs = append(s.RPCs, r[1])
		}
		out = append(out, s)
	}
	return out
}

// Role says which side of a service a reference is on.
type Role string

// The two sides of a gRPC service.
const (
	Client Role = "client"
	Server Role = "server"
)

// ServiceRef is a file's use of a gRPC service by the names protoc's
// plugins generate: NewUsersClient, UsersClient, UsersStub (client);
// RegisterUsersServer, UnimplementedUsersServer, UsersServicer (server);
// or its method path "/users.v1.Users/Get" (client).
type ServiceRef struct {
	Service string `json:"service"` // FullName
	Role    Role   `json:"role"`
	Line    int    `json:"line"`
}

// ServiceMatcher finds references to a set of services.
type ServiceMatcher struct {
	names  map[string][]string // short name → full names
	ident  *regexp.Regexp
	method *regexp.Regexp
}

// grpcContext: a file that names generated gRPC code at all. A bare
// "UsersClient" elsewhere is more likely a hand-written class.
var grpcContext = regexp.MustCompile(`(?i)grpc|protobuf|connectrpc|_pb\b|pb\.|_pb2`)

// NewServiceMatcher prepares the search for services' references; nil
// when there are none.
func NewServiceMatcher(services []Service) *ServiceMatcher {
	m := &ServiceMatcher{names: map[string][]string{}}
	var short, full []string
	for _, s := range services {
		if !slices.Contains(m.names[s.Name], s.FullName()) {
			m.names[s.Name] = append(m.names[s.Name], s.FullName())
		}
		short = append(short, regexp.QuoteMeta(s.Name))
		full = append(full, regexp.QuoteMeta(s.FullName()))
	}
	if len(short) == 0 {
		return nil
	}
	alt := strings.Join(short, "|")
	m.ident = regexp.MustCompile(`\b(New|Register|Unimplemented|add_)?(` + alt + `)(Client|Server|Stub|Servicer|ServiceClient|Handler)\b`)
	m.method = regexp.MustCompile(`["'` + "`" + `]/(` + strings.Join(full, "|") + `)/\w+["'` + "`" + `]`)
	return m
}

// Refs lists a file's references to the services, in order.
func (m *ServiceMatcher) Refs(relPath string, src []byte) []ServiceRef {
	l := langOf(relPath)
	if m == nil || l == langNone || l == langProto || !grpcContext.Match(src) {
		return nil
	}
	t := newText(l, src)
	var out []ServiceRef
	for _, x := range m.ident.FindAllStringSubmatchIndex(t.src, -1) {
		if t.inStr[x[0]] {
			continue
		}
		role := Client
		if suf := t.src[x[6]:x[7]]; suf == "Server" || suf == "Servicer" || suf == "Handler" {
			role = Server
		}
		for _, full := range m.names[t.src[x[4]:x[5]]] {
			out = append(out, ServiceRef{Service: full, Role: role, Line: t.line(x[0])})
		}
	}
	for _, x := range m.method.FindAllStringSubmatchIndex(t.src, -1) {
		out = append(out, ServiceRef{Service: t.src[x[2]:x[3]], Role: Client, Line: t.line(x[0])})
	}
	return out
}

// MayReferServices reports whether a source names generated gRPC code at
// all: only such files need Refs once every service is known.
func MayReferServices(src []byte) bool { return grpcContext.Match(src) }
