package code

import "testing"

// TestIncrementalRubyBareCallAncestry: a Ruby bare call binds a method of
// an unrelated class only through the caller's ancestry (resolve's
// rubyBareReach), so a base changed in another file changes the binding;
// a kept outcome would keep the old one.
func TestIncrementalRubyBareCallAncestry(t *testing.T) {
	steps := []ctorStep{
		{"the middle class gains the base that defines helper", map[string]string{
			"lib/mid.rb": "class Mid < Guard\nend\n",
		}, "file::lib/kid.rb::Kid::go", "file::lib/guard.rb::Guard::helper", true},
		{"and loses it again", map[string]string{
			"lib/mid.rb": "class Mid\nend\n",
		}, "file::lib/kid.rb::Kid::go", "file::lib/guard.rb::Guard::helper", false},
	}
	for _, released := range []bool{false, true} {
		name := "patched"
		if released {
			name = "rebuilt"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"lib/guard.rb": "class Guard\n  def helper()\n  end\nend\n",
				"lib/mid.rb":   "class Mid\nend\n",
				"lib/kid.rb":   "class Kid < Mid\n  def go\n    helper()\n  end\nend\n",
			})
			runIncrementalSteps(t, dir, steps, released)
		})
	}
}
