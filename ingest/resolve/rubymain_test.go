package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRubyTopLevelDelegation: a bare call at a file's top level runs on
// main, which answers top-level defs and the methods of the modules a
// loaded file extends it with; a module whose body generates methods
// that send to a constant (sinatra's Delegator: `delegate :get` with
// `self.target = Application`) makes `get '/'` in a script that requires
// the library bind Application's get. A script that does not load the
// extension binds nothing (no namesake).
func TestRubyTopLevelDelegation(t *testing.T) {
	files := map[string]string{
		"lib/app/base.rb": `module App
  class Base
    class << self
      def get(path, &block)
      end

      def set(k, v)
      end
    end
  end

  class Application < Base
  end

  module Delegator
    def self.delegate(*methods)
      methods.each do |name|
        define_method(name) do |*args, &block|
          Delegator.target.send(name, *args, &block)
        end
      end
    end

    delegate :get, :set

    class << self
      attr_accessor :target
    end

    self.target = Application
  end

  module Shout
    def shout(s)
    end
  end
end
`,
		"lib/app/main.rb": `require 'app/base'

extend App::Delegator
include App::Shout
`,
		"lib/app.rb": `require 'app/main'

set :inline, true
`,
		"lib/other.rb": `class Other
  def get(x)
  end

  def set(k, v)
  end

  def shout(s)
  end
end
`,
		"examples/classic.rb": `require 'app'

def local_helper
end

get '/' do
  local_helper()
end
set :port, 1
shout "hi"
`,
		"examples/plain.rb": `get '/'
shout "no"
`,
	}
	want := map[string]string{
		"examples/classic.rb get":                                 "lib/app/base.rb::App::Base::get",
		"examples/classic.rb set":                                 "lib/app/base.rb::App::Base::set",
		"examples/classic.rb shout":                               "lib/app/base.rb::App::Shout::shout",
		"examples/classic.rb local_helper":                        "examples/classic.rb::local_helper",
		"examples/plain.rb get":                                   "",
		"examples/plain.rb shout":                                 "",
		"lib/app.rb set":                                          "lib/app/base.rb::App::Base::set",
		"lib/app/base.rb::App::Delegator delegate":                "lib/app/base.rb::App::Delegator::delegate",
		"lib/app/base.rb::App::Delegator::delegate define_method": "",
	}
	got := resolveBareCalls(t, files)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("top-level bare calls (-want +got):\n%s", d)
	}
}
