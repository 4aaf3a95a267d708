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
