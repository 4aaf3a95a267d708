package code

import "testing"

// rbSelfSteps edit only the method that hands a block on (rb/helper.rb's
// mock_app): the bare call inside the block in rb/use.rb, a file that
// never changes, binds where the block now runs.
var rbSelfSteps = []ctorStep{
	{"mock_app stops handing its block to class_eval", map[string]string{
		"rb/helper.rb": "class Helper\n  def mock_app(&block)\n    yield\n  end\nend\n",
	}, "file::rb/use.rb::UseTest::t_mock", "file::rb/app.rb::App::Base::set", false},
	{"mock_app hands it on again", map[string]string{
		"rb/helper.rb": "class Helper\n  def mock_app(&block)\n    App::Base.class_eval(&block)\n  end\nend\n",
	}, "file::rb/use.rb::UseTest::t_mock", "file::rb/app.rb::App::Base::set", true},
}

// TestIncrementalRubyBlockSelf: a bare Ruby call's class is decided by
// other files (a method handing its block to class_eval), so when one of
// them changes the call binds as on a full ingest, in both incremental
// paths.
func TestIncrementalRubyBlockSelf(t *testing.T) {
	runBothPaths(t, map[string]string{
		"rb/app.rb":    "module App\n  class Base\n    class << self\n      def set(k, v)\n      end\n    end\n  end\nend\n",
		"rb/helper.rb": "class Helper\n  def mock_app(&block)\n    App::Base.class_eval(&block)\n  end\nend\n",
		"rb/use.rb":    "class UseTest < Helper\n  def t_mock\n    mock_app do\n      set :a, 1\n    end\n  end\nend\n",
	}, rbSelfSteps)
}
