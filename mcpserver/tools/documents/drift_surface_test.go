package documents

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fileResponse is shaped like starlette's FileResponse: a class
// attribute, a constructor, a public method with a docstring, __call__,
// private helpers and a property.
var fileResponse = strings.Join([]string{
	"import os",                     // 1
	"",                              // 2
	"@final",                        // 3
	"class FileResponse(Response):", // 4
	`    """Send a file."""`,        // 5
	"    chunk_size = 64 * 1024",    // 6
	"",                              // 7
	"    def __init__(",             // 8
	"        self,",                 // 9
	"        path: str,",            // 10
	"    ) -> None:",                // 11
	"        self.path = path",      // 12
	"",                              // 13
	"    def set_stat_headers(self, st) -> None:", // 14
	`        """Set the headers.`,                 // 15
	"",                                            // 16
	`        From a stat result."""`,              // 17
	"        self.headers = st",                   // 18
	"",                                            // 19
	"    async def __call__(self, scope):",        // 20
	"        await self._handle_simple(scope)", // 21
	"", // 22
	"    async def _handle_simple(self, send):", // 23
	"        await send(1)",                     // 24
	"",                                          // 25
	"    media = 'text/plain'",                  // 26
	"",                                          // 27
	"    @property",                             // 28
	"    def size(self) -> int:",                // 29
	"        return os.stat(self.path).st_size", // 30
	"",              // 31
	"def helper():", // 32
	"    return 1",  // 33
}, "\n")

func TestClassSurface(t *testing.T) {
	cases := []struct {
		name   string
		text   string
		lo, hi int
		want   [][2]int
	}{
		{"header, attributes, signatures, __call__", fileResponse, 3, 30,
			[][2]int{{3, 7}, {8, 11}, {14, 14}, {20, 21}, {26, 27}, {28, 29}}},
		{"no body read: the whole class", "class A: pass\n", 1, 1, [][2]int{{1, 1}}},
		{"only attributes", "class A:\n    x = 1\n    y = 2\n", 1, 3, [][2]int{{1, 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, classSurface([]byte(c.text), c.lo, c.hi)); diff != "" {
				t.Errorf("classSurface (-want +got):\n%s", diff)
			}
		})
	}
}
