module example.com/m1nd-embed

go 1.26.0

require github.com/m1nd-go/m1nd/core v0.1.0

require golang.org/x/sync v0.24.0 // indirect
