// Package server serves users over HTTP.
package server

import (
	"context"
	"fmt"
	"net/http"

	str "strings"

	"github.com/acme/store/v2"
	yaml "gopkg.in/yaml.v3"
)

// MaxConns bounds concurrent connections.
const MaxConns = 64

var (
	defaultServer = NewServer(nil)
	errClosed     = fmt.Errorf("closed")
)

// Server handles requests.
type Server struct {
	*Base
	db    *store.DB
	cache Cache
	log   Logger
}

// Handler serves one route.
type Handler interface {
	http.Handler
	Route() string
	Handle(ctx context.Context, req *Request) (*Response, error)
}

type ID = string

type Status int

// NewServer builds a Server.
func NewServer(db *store.DB) *Server {
	return &Server{db: db}
}

// Run serves until ctx ends.
func (s *Server) Run(ctx context.Context, h Handler) error {
	s.log.Printf("run %s", h.Route())
	rows, err := s.db.Query(ctx, "select")
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	c := NewClient()
	c.Do(rows)
	resp := &Response{}
	resp.Write(str.ToUpper("ok"))
	var st Status
	st.String()
	s.cache.Get("k")
	s.helper()
	yaml.Marshal(resp)
	go func() { drain(ctx) }()
	return nil
}

func (s *Server) helper() {}

func (st Status) String() string { return fmt.Sprint(int(st)) }

func (Remote) Ping() {}
