package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRubyClassMethodsNeedTheClass: a call on an untyped value does not
// bind a class method of the same file (sinatra's `options.delete(:host)`
// is a Hash's delete, not the DSL's `delete`); an instance method still
// binds, and a bang method is its own name.
func TestRubyClassMethodsNeedTheClass(t *testing.T) {
	files := map[string]string{
		"lib/app/use.rb": `module App
  class Base
    class << self
      def delete(path)
      end

      def route(verb)
        compile!(verb)
      end

      def compile!(verb)
      end

      def compile(verb)
      end
    end

    def self.build(x)
    end

    def purge(options)
      options.delete(:host)
      opts.build(1)
      helper.finish
    end

    def finish
    end
  end
end
`,
	}
	want := map[string]bound{
		"delete/-1":   {},
		"build/-1":    {},
		"compile!/-1": {Target: "lib/app/use.rb::App::Base::compile!"},
		"finish/-1":   {Target: "lib/app/use.rb::App::Base::finish"},
	}
	if d := cmp.Diff(want, resolveConstructions(t, files)); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}
