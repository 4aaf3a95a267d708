package stacktrace_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/stacktrace"
)

// Read a pasted trace: the dialect is detected, frames come most specific
// first, and library frames are marked external.
func ExampleParse() {
	tr := stacktrace.Parse(`Traceback (most recent call last):
  File "/srv/app/web/views.py", line 88, in post
    user = auth.login(form.user, form.password)
  File "/srv/app/.venv/lib/python3.12/site-packages/jwt/api.py", line 40, in decode
    raise DecodeError("bad token")
jwt.exceptions.DecodeError: bad token`, stacktrace.Auto)
	fmt.Println(tr.Language, tr.Error.Type, tr.Error.Message)
	for _, f := range tr.Frames {
		fmt.Println(f.File, f.Line, f.Function, f.External)
	}
	// Output:
	// python jwt.exceptions.DecodeError bad token
	// /srv/app/.venv/lib/python3.12/site-packages/jwt/api.py 40 decode true
	// /srv/app/web/views.py 88 post false
}

// Read every trace of a bug report, whatever its dialects.
func ExampleParseAll() {
	report := `The checkout page breaks, and the API logs a .NET exception.

TypeError: items is undefined
    at renderCart (https://shop.example.com/static/cart.js:12:5)

System.InvalidOperationException: cart is empty
   at Shop.Cart.Total() in /src/Shop/Cart.cs:line 31`
	for _, tr := range stacktrace.ParseAll(report) {
		for _, f := range tr.Frames {
			fmt.Printf("%s: %s:%d %s (line %d of the report)\n", tr.Language, f.File, f.Line, f.Function, f.TextLine+1)
		}
	}
	// Output:
	// javascript: static/cart.js:12 renderCart (line 4 of the report)
	// csharp: /src/Shop/Cart.cs:31 Total (line 7 of the report)
}
