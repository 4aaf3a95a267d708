package resolve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestRubyBareCallSelf: a bare Ruby call binds in the class self is where
// it runs — the lexical class, or the receiver a DSL block is evaluated
// on (class_eval, Class.new(Base) do, Builder.new do, a project method
// that hands its block to one, as sinatra's mock_app does) — and its
// ancestry; a name that ancestry lacks (Kernel's warn, a gem's DSL)
// binds nothing rather than a namesake elsewhere.
func TestRubyBareCallSelf(t *testing.T) {
	files := map[string]string{
		"lib/app/base.rb": `module App
  class Base
    class << self
      def get(path)
      end

      def set(k, v)
      end

      def helpers(*ext, &block)
        class_eval(&block)
      end

      def configure(*envs)
        yield self
      end
    end

    def halt(code)
    end

    configure :development do
      get '/x' do
      end
    end
  end

  module Helpers
    def redirect(uri)
      halt(302)
    end
  end

  class Base
    include Helpers
  end

  def self.new(base = Base, &block)
    base = Class.new(base)
    base.class_eval(&block)
    base
  end
end
`,
		"lib/guard/base.rb": `module Guard
  class Base
    def warn(env, msg)
    end

    def deny(env)
      warn(env, "denied")
    end
  end

  class Cookie < Base
    def react(env)
      warn(env, "tossed")
    end
  end
end
`,
		"lib/app/logger.rb": `module App
  module QuietLogger
    def self.registered(app)
      warn("quiet")
    end
  end
end
`,
		"test/helper.rb": `class Test
  def mock_app(base = App::Base, &block)
    @app = App.new(base, &block)
  end

  def rack_app(&block)
    Rack::Builder.new(&block)
  end
end

module Ext
  def configure(*args, &block)
    record(:configure) { |c| c.instance_exec(c, &block) }
  end
end
`,
		"test/use_test.rb": `class UseTest < Test
  def t_mock
    mock_app do
      set :a, 1
      helpers do
        get('/h')
      end
    end
  end

  def t_rack
    rack_app do
      use(Middleware)
    end
    Rack::Builder.new do
      set(:b, 2)
    end
  end

  def t_class
    Class.new(App::Base) do
      get '/c' do
      end
    end
    App::Base.class_eval do
      set(:c, 3)
    end
    klass.class_eval do
      get('/k')
    end
  end

  def t_own
    warn("x")
    [1].each { |i| t_rack(i) }
  end
end
`,
	}
	want := map[string]string{
		"lib/app/base.rb::App::Base configure":                 "lib/app/base.rb::App::Base::configure",
		"lib/app/base.rb::App::Base get":                       "lib/app/base.rb::App::Base::get",
		"lib/app/base.rb::App::Base::helpers class_eval":       "",
		"lib/app/base.rb::App::Helpers::redirect halt":         "lib/app/base.rb::App::Base::halt",
		"lib/app/logger.rb::App::QuietLogger::registered warn": "",
		"lib/guard/base.rb::Guard::Base::deny warn":            "lib/guard/base.rb::Guard::Base::warn",
		"lib/guard/base.rb::Guard::Cookie::react warn":         "lib/guard/base.rb::Guard::Base::warn",
		"test/helper.rb::Ext::configure record":                "",
		"test/use_test.rb::UseTest::t_class get":               "lib/app/base.rb::App::Base::get",
		"test/use_test.rb::UseTest::t_class get (also)":        "",
		"test/use_test.rb::UseTest::t_class set":               "lib/app/base.rb::App::Base::set",
		"test/use_test.rb::UseTest::t_mock get":                "lib/app/base.rb::App::Base::get",
		"test/use_test.rb::UseTest::t_mock helpers":            "lib/app/base.rb::App::Base::helpers",
		"test/use_test.rb::UseTest::t_mock mock_app":           "test/helper.rb::Test::mock_app",
		"test/use_test.rb::UseTest::t_mock set":                "lib/app/base.rb::App::Base::set",
		"test/use_test.rb::UseTest::t_own t_rack":              "test/use_test.rb::UseTest::t_rack",
		"test/use_test.rb::UseTest::t_own warn":                "",
		"test/use_test.rb::UseTest::t_rack rack_app":           "test/helper.rb::Test::rack_app",
		"test/use_test.rb::UseTest::t_rack set":                "",
		"test/use_test.rb::UseTest::t_rack use":                "",
	}
	got := resolveBareCalls(t, files)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bare calls (-want +got):\n%s", d)
	}
}

// resolveBareCalls binds every call without a receiver, keyed by its
// source and name; several of one key must agree (a disagreement is
// reported as its own key).
func resolveBareCalls(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	results := extractAll(t, files)
	ix := New(results, nil)
	trim := func(id string) string { return strings.TrimPrefix(id, "file::") }
	got := map[string]string{}
	for _, r := range results {
		for _, e := range r.Edges {
			name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
			if !ok || e.Relation != extract.RelCalls || !strings.HasPrefix(e.Hint.Receiver, "&") {
				continue
			}
			o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
			k := trim(e.Source) + " " + name
			if old, ok := got[k]; ok && old != trim(o.Target) {
				k += " (also)"
			}
			got[k] = trim(o.Target)
		}
	}
	return got
}

// TestRubyMixinKeepsTheSuperclass: `include Mixin` in a subclass's body
// does not hide its superclass, whose initialize `Sub.new` runs (a
// mixin's path once replaced the superclass's).
func TestRubyMixinKeepsTheSuperclass(t *testing.T) {
	files := map[string]string{
		"lib/shop.rb": `module Shop
  module Audit
    def audit; end
  end

  class Base
    def initialize(a, b)
    end
  end

  class Cart < Base
    include Audit
  end
end
`,
		"lib/use.rb": `class Use
  def run
    Shop::Cart.new(1, 2)
  end
end
`,
	}
	want := map[string]bound{
		"Shop::Cart/2": {Target: "lib/shop.rb::Shop::Base::initialize", Also: []string{"lib/shop.rb::Shop::Cart"}},
	}
	if d := cmp.Diff(want, resolveConstructions(t, files)); d != "" {
		t.Errorf("constructions (-want +got):\n%s", d)
	}
}
