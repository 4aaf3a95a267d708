module github.com/m1nd-go/m1nd/tools

go 1.26

require (
	github.com/m1nd-go/m1nd/core v0.0.0
	github.com/m1nd-go/m1nd/ingest v0.0.0
	github.com/m1nd-go/m1nd/mcpserver v0.0.0
)

replace (
	github.com/m1nd-go/m1nd/core => ../core
	github.com/m1nd-go/m1nd/ingest => ../ingest
	github.com/m1nd-go/m1nd/mcpserver => ../mcpserver
)
