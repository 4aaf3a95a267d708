module github.com/m1nd-go/m1nd/ingest

go 1.26

require github.com/m1nd-go/m1nd/core v0.0.0

replace github.com/m1nd-go/m1nd/core => ../core
