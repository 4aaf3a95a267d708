package continuity

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The input structs' tags write the continuity store's limits and enums
// as literals; they must say what the store enforces.
func TestDeclaredBoundsFollowTheStore(t *testing.T) {
	t.Parallel()
	param := tooltest.Params(t, Register)
	num := func(f *float64) int {
		if f == nil {
			return -1
		}
		return int(*f)
	}
	ints := []struct {
		what      string
		got, want int
	}{
		{"boot_memory key maxlen", param("boot_memory", "key").MaxLen, continuity.MaxMemoryKey},
		{"lock_create radius max", num(param("lock_create", "radius").Max), continuity.MaxRadius},
		{"trail_save label maxlen", param("trail_save", "label").MaxLen, continuity.MaxLabel},
		{"trail_save hypotheses maxitems", param("trail_save", "hypotheses").MaxItems, continuity.MaxHypotheses},
		{"trail_save conclusions maxitems", param("trail_save", "conclusions").MaxItems, continuity.MaxConclusions},
		{"trail_save open_questions maxitems", param("trail_save", "open_questions").MaxItems, continuity.MaxOpenQuestions},
		{"trail_save open_questions maxlen", param("trail_save", "open_questions").MaxLen, continuity.MaxStatement},
		{"trail_save tags maxitems", param("trail_save", "tags").MaxItems, continuity.MaxTags},
		{"trail_save tags maxlen", param("trail_save", "tags").MaxLen, continuity.MaxTag},
		{"trail_save summary maxlen", param("trail_save", "summary").MaxLen, continuity.MaxSummary},
		{"trail_save visited_nodes maxitems", param("trail_save", "visited_nodes").MaxItems, continuity.MaxVisited},
		{"trail_list filter_agent_id maxlen", param("trail_list", "filter_agent_id").MaxLen, continuity.MaxAgentIDLen},
		{"trail_list filter_tags maxitems", param("trail_list", "filter_tags").MaxItems, continuity.MaxTags},
		{"trail_list filter_tags maxlen", param("trail_list", "filter_tags").MaxLen, continuity.MaxTag},
		{"trail_list limit max", num(param("trail_list", "limit").Max), continuity.MaxTrails},
		{"trail_merge label maxlen", param("trail_merge", "label").MaxLen, continuity.MaxLabel},
		{"perspective_routes page_size default", param("perspective_routes", "page_size").Default.(int), routesPageSize},
		{"perspective_branch branch_name maxlen", param("perspective_branch", "branch_name").MaxLen, continuity.MaxBranchName},
	}
	for _, tool := range []string{"perspective_inspect", "perspective_peek", "perspective_follow", "perspective_affinity"} {
		ints = append(ints, struct {
			what      string
			got, want int
		}{tool + " route_index max", num(param(tool, "route_index").Max), continuity.MaxRoutes})
	}
	for _, c := range ints {
		if c.got != c.want {
			t.Errorf("%s is %d, the store's limit %d", c.what, c.got, c.want)
		}
	}
	enums := []struct {
		what      string
		got, want []string
	}{
		{"boot_memory action", param("boot_memory", "action").Enum, []string{"set", "get", "list", "delete"}},
		{"lock_create scope", param("lock_create", "scope").Enum, continuity.Scopes},
		{"lock_watch strategy", param("lock_watch", "strategy").Enum, continuity.Strategies},
		{"trail_list filter_status", param("trail_list", "filter_status").Enum, continuity.TrailStatuses},
		{"perspective_compare dimensions", param("perspective_compare", "dimensions").Enum, tools.DimensionNames},
	}
	for _, c := range enums {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s accepts %q, the store %q", c.what, c.got, c.want)
		}
	}
	if d := param("perspective_start", "lens").Doc(); !strings.Contains(d, "("+strings.Join(continuity.Families, ", ")+")") {
		t.Errorf("perspective_start lens does not list the route families %v: %s", continuity.Families, d)
	}
	if d := param("perspective_routes", "page_size").Description; !strings.Contains(d, fmt.Sprintf("[1, %d]", routesMaxPageSize)) {
		t.Errorf("perspective_routes page_size does not say the clamp [1, %d]: %s", routesMaxPageSize, d)
	}
}

// A parameter several tools take (the input structs repeat its field) is
// declared the same way in each.
func TestSharedParamsAgree(t *testing.T) {
	t.Parallel()
	r := tools.NewRegistry()
	Register(r)
	for name, tls := range map[string][]string{
		"perspective_id":    {"perspective_routes", "perspective_inspect", "perspective_peek", "perspective_follow", "perspective_suggest", "perspective_affinity", "perspective_branch", "perspective_back", "perspective_close"},
		"route_set_version": {"perspective_inspect", "perspective_peek", "perspective_follow", "perspective_suggest", "perspective_affinity"},
		"lock_id":           {"lock_watch", "lock_diff", "lock_rebase", "lock_release"},
	} {
		var first tools.Param
		for i, tool := range tls {
			tl, ok := r.Lookup(tool)
			if !ok {
				t.Fatalf("no tool %s", tool)
			}
			p, ok := tl.Param(name)
			if !ok {
				t.Errorf("%s has no parameter %s", tool, name)
				continue
			}
			if i == 0 {
				first = p
			} else if !reflect.DeepEqual(p, first) {
				t.Errorf("%s declares %s as %+v, %s as %+v", tool, name, p, tls[0], first)
			}
		}
	}
}
