package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRubySpecExampleSelf: a bare call in an RSpec example (describe,
// it, let … blocks, bare or under RSpec.describe) runs on the example: it
// binds the test file's helpers — a def made in the file's blocks, a module a
// group includes or RSpec.configure includes, a top-level def — and
// otherwise nothing, never a library method of the same name (RSpec's
// `all` matcher is no Store#all). A group is a Minitest::Spec (or RSpec
// ExampleGroup): what the repository reopens it with answers; a block a
// helper hands to a class whose initialize instance_evals it runs on
// the new object (rack's builder_to_app).
func TestRubySpecExampleSelf(t *testing.T) {
	files := map[string]string{
		"lib/store.rb": `class Store
  def all
  end

  def fetch(k)
  end

  def build_store
  end

  def build_report
  end
end
`,
		"spec/support/helpers.rb": `module SpecHelpers
  def build_store
  end
end

module Extra
  def extra_thing
  end
end

def fixture_path
end
`,
		"lib/builder.rb": `class Builder
  def initialize(&block)
    instance_eval(&block)
  end

  def use(m)
  end
end
`,
		"test/helper.rb": `class Minitest::Spec
  def quietly(&block)
  end
end
`,
		"test/contest.rb": `class Minitest::Test
  def self.context(name, &block)
  end
end
`,
		"test/spec_builder.rb": `require_relative 'helper'

describe Builder do
  def build(&block)
    Builder.new(&block)
  end

  it 'uses' do
    build do
      use(1)
    end
    quietly()
  end
end
`,
		"spec/spec_helper.rb": `RSpec.configure do |config|
  config.include SpecHelpers
end
`,
		"spec/store_spec.rb": `require 'spec_helper'

RSpec.describe Store do
  include Extra
  extend Forwardable
  def_delegators :subject, :build_report
  let(:store) { Store.new }

  def local_helper
  end

  describe '#all' do
    it 'lists' do
      expect(store.all).to all(be_a(String))
      local_helper()
      build_store()
      fixture_path()
      extra_thing()
      fetch(:x)
      build_report()
    end
  end
end
`,
		"spec/bare_spec.rb": `describe 'bare' do
  context 'c' do
  end

  before do
    fetch(:y)
  end

  it 'works' do
    extra_thing()
    build_store()
  end
end
`,
	}
	want := map[string]string{
		"lib/builder.rb::Builder::initialize instance_eval": "",
		"spec/bare_spec.rb context":                         "",
		"test/spec_builder.rb build":                        "test/spec_builder.rb::build",
		"test/spec_builder.rb describe":                     "",
		"test/spec_builder.rb it":                           "",
		"test/spec_builder.rb quietly":                      "test/helper.rb::Minitest::Spec::quietly",
		"test/spec_builder.rb use":                          "lib/builder.rb::Builder::use",
		"spec/bare_spec.rb build_store":                     "spec/support/helpers.rb::SpecHelpers::build_store",
		"spec/bare_spec.rb extra_thing":                     "",
		"spec/bare_spec.rb fetch":                           "",
		"spec/store_spec.rb build_report":                   "lib/store.rb::Store::build_report",
		"spec/store_spec.rb def_delegators":                 "",
		"spec/store_spec.rb all":                            "",
		"spec/store_spec.rb be_a":                           "",
		"spec/store_spec.rb build_store":                    "spec/support/helpers.rb::SpecHelpers::build_store",
		"spec/store_spec.rb extra_thing":                    "spec/support/helpers.rb::Extra::extra_thing",
		"spec/store_spec.rb fixture_path":                   "spec/support/helpers.rb::fixture_path",
		"spec/store_spec.rb fetch":                          "",
		"spec/store_spec.rb local_helper":                   "spec/store_spec.rb::local_helper",
		"spec/store_spec.rb let":                            "",
		"spec/store_spec.rb describe":                       "",
		"spec/store_spec.rb expect":                         "",
		"spec/store_spec.rb it":                             "",
		"spec/bare_spec.rb before":                          "",
		"spec/bare_spec.rb describe":                        "",
		"spec/bare_spec.rb it":                              "",
	}
	got := resolveBareCalls(t, files)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bare calls in examples (-want +got):\n%s", d)
	}
}
