module github.com/m1nd-go/m1nd/mcpserver

go 1.26

require (
	github.com/m1nd-go/m1nd/core v0.0.0
	github.com/m1nd-go/m1nd/ingest v0.0.0
)

replace (
	github.com/m1nd-go/m1nd/core => ../core
	github.com/m1nd-go/m1nd/ingest => ../ingest
)
