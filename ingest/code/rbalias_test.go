package code

import "testing"

// TestRubyConstantAlias: `Stream = Sinatra::Helpers::Stream` in a class
// body makes `Stream.new` there construct Sinatra::Helpers::Stream
// (sinatra's test/streaming_test.rb: 9 constructions bound nothing). The
// alias is looked up lexically like any constant, its target from where
// the alias is declared; an alias chain is followed; an alias naming a
// gem's class, or one out of lexical reach, binds nothing.
func TestRubyConstantAlias(t *testing.T) {
	d := ingestFiles(t, t.TempDir(), map[string]string{
		"lib/stream.rb": "module Sinatra\n  module Helpers\n    class Stream\n      def initialize(a, b)\n      end\n    end\n  end\n" +
			"  Alias = Helpers::Stream\nend\n",
		"test/stream_test.rb": "class StreamingTest\n  Stream = Sinatra::Helpers::Stream\n  Again = Stream\n  Gem = Rack::MockRequest\n\n" +
			"  def test_new\n    Stream.new(1, 2)\n  end\n\n  def test_chain\n    Again.new(1, 2)\n  end\n\n" +
			"  def test_nested\n    Sinatra::Alias.new(1, 2)\n  end\n\n  def test_gem\n    Gem.new(1)\n  end\nend\n",
		"test/other_test.rb": "class OtherTest\n  def test_out_of_reach\n    Stream.new(1, 2)\n  end\nend\n",
	})
	const init = "file::lib/stream.rb::Sinatra::Helpers::Stream::initialize"
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"file::test/stream_test.rb::StreamingTest::test_new", true},
		{"file::test/stream_test.rb::StreamingTest::test_chain", true},
		{"file::test/stream_test.rb::StreamingTest::test_nested", true},
		{"file::test/other_test.rb::OtherTest::test_out_of_reach", false},
	} {
		if got := d.Has(c.src, "calls", init); got != c.want {
			t.Errorf("%s -calls-> initialize: %v, want %v", c.src, got, c.want)
		}
	}
	for _, e := range d.Edges {
		if e.Source == "file::test/stream_test.rb::StreamingTest::test_gem" && e.Relation == "calls" {
			t.Errorf("Gem.new (a gem's class through an alias) bound %s", e.Target)
		}
	}
}

// rbAliasSteps edit only the file of an alias's target (rb/base.rb):
// rb/alias.rb (`Short = Plain`, `Again = Short`), rb/sub.rb (`class Sub <
// Short`) and rb/use.rb (their constructions) never change.
var rbAliasSteps = []ctorStep{
	{"the target gains initialize", map[string]string{
		"rb/base.rb": "module Shop\n  class Plain\n    def initialize(n)\n    end\n  end\nend\n",
	}, "file::rb/use.rb::Shop::Order::ship", "file::rb/base.rb::Shop::Plain::initialize", true},
	{"the target gains a method", map[string]string{
		"rb/base.rb": "module Shop\n  class Plain\n    def initialize(n)\n    end\n\n    def size\n    end\n  end\nend\n",
	}, "file::rb/use.rb::Shop::Order::again", "file::rb/base.rb::Shop::Plain::initialize", true},
	{"the target is renamed", map[string]string{
		"rb/base.rb": "module Shop\n  class Plainer\n    def initialize(n)\n    end\n  end\nend\n",
	}, "file::rb/use.rb::Shop::Order::sub", "file::rb/base.rb::Shop::Plain::initialize", false},
	{"the target comes back without initialize", map[string]string{
		"rb/base.rb": "module Shop\n  class Plain\n    def size\n    end\n  end\nend\n",
	}, "file::rb/use.rb::Shop::Order::ship", "file::rb/base.rb::Shop::Plain", true},
}

// TestIncrementalRubyAliasTarget: when only the file of an alias's target
// changes, the constructions through the alias (directly, through a
// chain, through a subclass of the alias) bind as on a full ingest, in
// both incremental paths. The references are named Short, Again and Sub,
// none of them defined in the changed file.
func TestIncrementalRubyAliasTarget(t *testing.T) {
	runBothPaths(t, map[string]string{
		"rb/base.rb":  "module Shop\n  class Plain\n  end\nend\n",
		"rb/alias.rb": "module Shop\n  Short = Plain\n  Again = Short\nend\n",
		"rb/sub.rb":   "module Shop\n  class Sub < Short\n  end\nend\n",
		"rb/use.rb": "module Shop\n  class Order\n    def ship\n      Short.new(1)\n    end\n\n" +
			"    def again\n      Again.new(1)\n    end\n\n    def sub\n      Sub.new(1)\n    end\n  end\nend\n",
	}, rbAliasSteps)
}
