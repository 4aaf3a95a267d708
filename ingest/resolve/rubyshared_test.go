package resolve

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRubySharedContextHelpers: an example group that includes a shared
// context or shared examples defined in another file (under spec/support, as
// rspec-core's "spec files" and "Runner support") binds the defs of that
// file's blocks and the modules they include; a group that includes no
// such name, or another name, binds nothing there. RSpec.describe in a
// module's body (rspec-core's specs sit in module RSpec::Core) runs its
// examples on the group: the module's own build_runner is not theirs.
func TestRubySharedContextHelpers(t *testing.T) {
	files := map[string]string{
		"lib/runner.rb": `class Runner
  def build_runner
  end

  def run_command
  end
end
`,
		"spec/support/helper_methods.rb": `module CommandHelpers
  def run_command
  end
end
`,
		"spec/support/runner_support.rb": `RSpec.shared_context "Runner support" do
  include CommandHelpers
  let(:out) { StringIO.new }

  def build_runner(*args)
  end
end
`,
		"spec/support/shared_examples.rb": `shared_examples_for :a_formatter do
  def formatter_output
  end
end
`,
		"spec/runner_spec.rb": `RSpec.describe Runner do
  include_context "Runner support"
  it_behaves_like :a_formatter

  it 'runs' do
    build_runner()
    run_command()
    formatter_output()
  end
end
`,
		"spec/nested_spec.rb": `module App
  def self.helper
  end

  def build_runner
  end

  RSpec.describe Runner do
    include_context "Runner support"

    it 'runs' do
      build_runner()
      helper()
    end
  end
end
`,
		"spec/other_spec.rb": `RSpec.describe 'other' do
  include_context 'another context'

  it 'runs' do
    build_runner()
    run_command()
    formatter_output()
  end
end
`,
	}
	want := map[string]string{
		"spec/runner_spec.rb build_runner":      "spec/support/runner_support.rb::build_runner",
		"spec/runner_spec.rb run_command":       "spec/support/helper_methods.rb::CommandHelpers::run_command",
		"spec/runner_spec.rb formatter_output":  "spec/support/shared_examples.rb::formatter_output",
		"spec/nested_spec.rb::App build_runner": "spec/support/runner_support.rb::build_runner",
		"spec/nested_spec.rb::App helper":       "",
		"spec/other_spec.rb build_runner":       "",
		"spec/other_spec.rb run_command":        "",
		"spec/other_spec.rb formatter_output":   "",
	}
	got := resolveBareCalls(t, files)
	maps.DeleteFunc(got, func(k, _ string) bool { return !slices.Contains(slices.Collect(maps.Keys(want)), k) })
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bare calls in groups including shared contexts (-want +got):\n%s", d)
	}
}
