package extract

import "testing"

// tableFact is a node or an edge that a table-language fixture must yield.
type tableFact struct {
	node     string // node ID suffix after "file::<fixture>"; with typ/tags
	typ      string
	line     uint32
	tags     []string
	src, rel string // edge: source suffix, relation, target
	dst      string
	hint     RefHint
}

func n(id, typ string, line uint32, tags ...string) tableFact {
	return tableFact{node: id, typ: typ, line: line, tags: tags}
}

func e(src, rel, dst string, line uint32, h RefHint) tableFact {
	return tableFact{src: src, rel: rel, dst: dst, line: line, hint: h}
}

func TestFactsTableLanguages(t *testing.T) {
	cases := []struct {
		fixture, lang string
		imports       []string
		pkg           string
		facts         []tableFact
	}{
		{"c/list.c", "c", []string{"stdlib.h", "list.h"}, "", []tableFact{
			n("::list_push", "Function", 17, "function"),
			n("::count", "Function", 25), // the definition replaces the prototype on line 15
			n("::node", "Struct", 8), n("::node_t", "Type", 8, "type_alias"), n("::color", "Enum", 13),
			n("::MAX_LEN", "Reference", 5, "constant"), n("::SQUARE", "Function", 6, "macro"),
			e("::list_push", "calls", "ref::count", 21, RefHint{}),
			e("::list_push", "calls", "ref::malloc", 18, RefHint{}),
			e("::list_push", "references", "ref::node_t", 17, RefHint{}), // its return and parameter type
		}},
		{"cpp/shape.cpp", "cpp", []string{"vector", "shape.hpp"}, "", []tableFact{
			n("::geo", "Module", 5), n("::geo::Shape", "Class", 7), n("::geo::Shape::~Shape", "Function", 9, "method"),
			n("::geo::Circle::area", "Function", 16, "method"), n("::geo::Point", "Struct", 21),
			n("::geo::Circle::scaled", "Function", 23, "method"), n("::main", "Function", 29, "function"),
			e("::geo::Circle", "inherits", "ref::Shape", 13, RefHint{}),
			e("::geo::Circle", "inherits", "ref::Named", 13, RefHint{}),
			e("::geo::Circle::scaled", "member_of", "ref::Circle", 23, RefHint{}),
			e("::geo::Circle::scaled", "calls", "ref::area", 24, RefHint{Receiver: "this", ReceiverType: "Circle"}),
			e("::main", "calls", "ref::push_back", 32, RefHint{Receiver: "pts"}),
			e("::main", "references", "ref::Point", 31, RefHint{}), // a template argument of a local's type
		}},
		{"csharp/OrderService.cs", "csharp", []string{"System", "System.Collections.Generic", "Acme.Data"}, "", []tableFact{
			n("::Acme.Shop", "Module", 5), n("::Acme.Shop::IOrderService", "Type", 7, "interface", "public"),
			n("::Acme.Shop::OrderService", "Class", 12, "public"), n("::Acme.Shop::OrderService::Find", "Function", 18, "method", "public"),
			n("::Acme.Shop::OrderService::Validate", "Function", 26, "private"), n("::Acme.Shop::Status", "Enum", 31),
			n("::Acme.Shop::Money", "Struct", 33),
			e("::Acme.Shop::OrderService", "inherits", "ref::ServiceBase", 12, RefHint{}),
			e("::Acme.Shop::OrderService", "implements", "ref::IDisposable", 12, RefHint{}),
			e("::Acme.Shop::OrderService::Find", "calls", "ref::Validate", 21, RefHint{ReceiverType: "OrderService"}),
			e("::Acme.Shop::OrderService::Find", "calls", "ref::WriteLine", 22, RefHint{ReceiverType: "Console"}),
			e("::Acme.Shop::OrderService::Find", "calls", "ref::Order", 23, RefHint{}),
			e("::Acme.Shop::OrderService", "references", "ref::IRepository", 14, RefHint{}),               // a field's type
			e("::Acme.Shop::OrderService::OrderService", "references", "ref::IRepository", 16, RefHint{}), // a parameter's
			e("::Acme.Shop::OrderService::Find", "references", "ref::Order", 18, RefHint{}),               // a return type
			e("::Registry::Resolve", "references", "ref::OrderService", 38, RefHint{}),                    // a call's type argument
		}},
		{"ruby/user.rb", "ruby", []string{"json", "base"}, "", []tableFact{
			n("::Accounts", "Module", 5), n("::Accounts::User", "Class", 6), n("::Accounts::User::find", "Function", 17, "method"),
			e("::Accounts::User", "inherits", "ref::ApplicationRecord", 6, RefHint{}),
			e("::Accounts::User::save", "calls", "ref::validate!", 22, RefHint{ReceiverType: "User"}),
			e("::Accounts::User::find", "calls", "ref::lookup", 18, RefHint{Receiver: "Repo", ReceiverType: "Repo"}),
			e("::Admin", "inherits", "ref::Auditing::Trail", 29, RefHint{}), // include
			e("::Admin", "inherits", "ref::Finders", 30, RefHint{}),         // extend
		}},
		{"php/UserController.php", "php", []string{`App\Models\User`, `Illuminate\Support\Facades\Log`, "helpers.php"}, `App\Http`, []tableFact{
			n(`::App\Http`, "Module", 2), n("::UserController", "Class", 13), n("::UserController::show", "Function", 20, "method", "public"),
			n("::Renders", "Type", 9, "interface"), n("::format_user", "Function", 30, "function"),
			e("::UserController", "inherits", "ref::Controller", 13, RefHint{}),
			e("::UserController", "implements", "ref::Renders", 13, RefHint{}),
			e("::UserController::show", "calls", "ref::find", 21, RefHint{Receiver: "$this->repo"}),
			e("::UserController::show", "calls", "ref::info", 22, RefHint{ReceiverType: "Log"}),
			e("::UserController::show", "calls", "ref::View", 23, RefHint{}),
			e("::AdminController", "inherits", "ref::Auditable", 35, RefHint{}), // a trait it uses
			e("::UserController::__construct", "references", "ref::UserRepository", 16, RefHint{}),
			e("::Auditable", "inherits", "ref::SoftDeletes", 39, RefHint{}),
		}},
		{"bash/deploy.sh", "bash", []string{"./lib/common.sh", "$HOME/.env"}, "", []tableFact{
			n("::build", "Function", 6), n("::upload", "Function", 16),
			e("::deploy", "calls", "ref::build", 12, RefHint{}),
			e("", "calls", "ref::deploy", 20, RefHint{}),
		}},
		{"scala/Orders.scala", "scala", []string{"scala.collection.mutable", "com.acme.db.Repo", "com.acme.db.Tx"}, "com.acme.orders", []tableFact{
			n("::Service", "Type", 6, "trait"), n("::OrderService", "Class", 10), n("::OrderService::audit", "Function", 17, "private"),
			n("::OrderId", "Type", 26, "type_alias"),
			e("::OrderService", "inherits", "ref::Service", 10, RefHint{}),
			e("::OrderService::find", "calls", "ref::audit", 13, RefHint{}),
			e("::OrderService::apply", "calls", "ref::OrderService", 21, RefHint{}),
			e("::Service::find", "references", "ref::Order", 7, RefHint{}),               // a type argument of the result type
			e("::OrderService", "references", "ref::Repo", 10, RefHint{}),                // a class parameter's type
			e("::OrderService", "references", "ref::BaseService", 10, RefHint{}),         // extends, also an inherits edge
			e("::OrderService::apply", "references", "ref::OrderService", 21, RefHint{}), // a result type
		}},
		{"kotlin/UserRepo.kt", "kotlin", []string{"kotlinx.coroutines.launch", "com.acme.db.Database"}, "com.acme.users", []tableFact{
			n("::Repo", "Type", 6, "interface"), n("::UserRepo", "Class", 10), n("::Role", "Enum", 23),
			n("::UserRepo::Factory::create", "Function", 19, "method"), n("::UserId", "Type", 29),
			e("::UserRepo", "inherits", "ref::BaseRepo", 10, RefHint{}),
			e("::UserRepo::find", "calls", "ref::mapRow", 13, RefHint{}),
			e("::main", "calls", "ref::create", 32, RefHint{ReceiverType: "UserRepo"}),
			e("::UserRepo", "references", "ref::Database", 10, RefHint{Module: "com.acme.db"}), // a constructor parameter's type, through its import
			e("::UserRepo::mapRow", "references", "ref::Row", 16, RefHint{}),
		}},
		{"lua/inventory.lua", "lua", []string{"dkjson", "util"}, "", []tableFact{
			n("::clamp", "Function", 7, "function"), n("::M::add", "Function", 11, "method"), n("::M::remove", "Function", 16),
			e("::M::add", "calls", "ref::clamp", 12, RefHint{}),
			e("::M::remove", "calls", "ref::save", 17, RefHint{Receiver: "self", ReceiverType: "M"}),
		}},
		{"haskell/Queue.hs", "haskell", []string{"Data.List", "Data.Maybe"}, "Data.Queue", []tableFact{
			n("::Queue", "Enum", 7), n("::Size", "Type", 9), n("::Container", "Type", 13, "trait"),
			n("::push", "Function", 20), n("::check", "Function", 23),
			e("::push", "calls", "ref::check", 20, RefHint{}),
			e("::check", "calls", "ref::reverse", 23, RefHint{Receiver: "L"}),
		}},
		{"ocaml/stack.ml", "ocaml", []string{"Printf"}, "", []tableFact{
			n("::push", "Function", 10), n("::pop", "Function", 12), n("::Counter", "Module", 16),
			n("::Counter::count", "Function", 17), n("::t", "Type", 4),
			e("::Counter::count", "calls", "ref::length", 17, RefHint{Receiver: "List"}),
			e("", "calls", "ref::count", 22, RefHint{Receiver: "Counter"}),
		}},
		{"ocaml/stack.mli", "ocaml", nil, "", []tableFact{
			n("::push", "Function", 4), n("::ORDERED", "Module", 6), n("::ORDERED::compare", "Function", 8),
		}},
		{"julia/stats.jl", "julia", []string{"LinearAlgebra", "Statistics", "Base:show"}, "", []tableFact{
			n("::Stats", "Module", 1), n("::Stats::Mean", "Struct", 8), n("::Stats::estimate", "Function", 12),
			n("::Stats::Base::show", "Function", 16, "method"), n("::Stats::normalize_all", "Function", 20),
			e("::Stats::estimate", "calls", "ref::sum", 13, RefHint{}),
			e("::Stats::normalize_all", "calls", "ref::normalize", 20, RefHint{}),
		}},
		{"zig/list.zig", "zig", []string{"std", "util.zig"}, "", []tableFact{
			n("::List", "Struct", 4, "public"), n("::List::init", "Function", 7, "method"), n("::Color", "Enum", 16),
			n("::list starts empty", "Function", 23, "test"),
			e("::main", "calls", "ref::init", 19, RefHint{ReceiverType: "List"}),
			e("::List::len", "calls", "ref::count", 12, RefHint{Receiver: "util"}),
		}},
		{"css/site.css", "css", []string{"reset.css", "theme.css"}, "", []tableFact{
			n("::.btn-primary, .btn:hover", "Reference", 4, "selector"), n("::fade-in", "Reference", 16, "keyframes"),
			n("::.sidebar", "Reference", 13),
		}},
		{"yaml/ci.yml", "yaml", nil, "", []tableFact{
			n("::jobs", "Reference", 5, "key"), n("::jobs::build", "Reference", 6), n("::jobs::lint-check", "Reference", 10),
		}},
		{"toml/Cargo.toml", "toml", nil, "", []tableFact{
			n("::dependencies", "Module", 5, "section"), n("::dependencies::serde", "Reference", 6, "key"), n("::bin::name", "Reference", 10),
		}},
		{"json/package.json", "json", nil, "", []tableFact{
			n("::dependencies::react-dom", "Reference", 6, "key"), n("::scripts::build", "Reference", 3),
		}},
		{"html/index.html", "html", []string{"css/site.css", "js/app.js"}, "", []tableFact{
			e("", "imports", "ref::app", 6, RefHint{Module: "js/app.js"}),
		}},
		{"r/analysis.R", "r", []string{"dplyr", "helpers.R"}, "", []tableFact{
			n("::summarise_sales", "Function", 5), n("::plot_sales", "Function", 9),
			e("::plot_sales", "calls", "ref::ggplot", 10, RefHint{Receiver: "ggplot2"}),
			e("", "calls", "ref::summarise_sales", 13, RefHint{}),
		}},
		{"make/Makefile", "make", []string{"common.mk"}, "", []tableFact{
			n("::build", "Function", 7, "target"), n("::BINARY", "Reference", 5, "constant"), n("::banner", "Function", 13, "macro"),
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			r := extractFixture(t, c.fixture)
			f := FileID(c.fixture)
			if r.Language != c.lang {
				t.Errorf("language %q, want %q", r.Language, c.lang)
			}
			if r.ParseErrors != 0 {
				t.Errorf("%d parse errors", r.ParseErrors)
			}
			if r.Package != c.pkg {
				t.Errorf("package %q, want %q", r.Package, c.pkg)
			}
			var mods []string
			for _, im := range r.Imports {
				mods = append(mods, im.Module)
			}
			if len(mods) != len(c.imports) {
				t.Errorf("imports %q, want %q", mods, c.imports)
			} else {
				for i := range mods {
					if mods[i] != c.imports[i] {
						t.Errorf("import %d = %q, want %q", i, mods[i], c.imports[i])
					}
				}
			}
			for _, fct := range c.facts {
				if fct.node != "" {
					wantNode(t, r, f+fct.node, fct.typ, fct.line, fct.tags...)
				} else {
					wantEdge(t, r, f+fct.src, fct.rel, fct.dst, fct.line, fct.hint)
				}
			}
		})
	}
}
