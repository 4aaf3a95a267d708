package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
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
      self.class.token(2)
    end

    def self.token(n)
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
		"token/-1":    {Target: "lib/app/use.rb::App::Base::token"},
	}
	if d := cmp.Diff(want, resolveConstructions(t, files)); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}

// TestRubyRequireFollowsTheLoadPath: require names a path below a load
// path directory (the root, lib, spec, test); a deeper file named alike is
// not what Ruby loads.
func TestRubyRequireFollowsTheLoadPath(t *testing.T) {
	var results []*extract.Result
	for _, p := range []string{"lib/sinatra/middleware/logger.rb", "rack-protection/lib/rack/protection.rb", "spec/spec_helper.rb", "config/boot.rb", "app/x.rb"} {
		r, err := extract.ExtractFile(p, []byte("x = 1\n"))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	ix := New(results, nil)
	from := ix.files[ix.fileIdx["app/x.rb"]]
	for _, c := range []struct {
		mod  string
		want []string
	}{
		{"logger", nil},
		{"rack/protection", []string{"rack-protection/lib/rack/protection.rb"}},
		{"sinatra/middleware/logger", []string{"lib/sinatra/middleware/logger.rb"}},
		{"spec_helper", []string{"spec/spec_helper.rb"}},
		{"config/boot", []string{"config/boot.rb"}},
		{"boot", nil},
	} {
		var got []string
		for _, l := range ix.rubyModule(from, c.mod) {
			got = append(got, l.file)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("require %q (-want +got):\n%s", c.mod, d)
		}
	}
}
