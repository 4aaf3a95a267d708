module github.com/m1nd-go/m1nd/mcpserver

go 1.26.0

require (
	github.com/m1nd-go/m1nd/core v0.0.0
	github.com/m1nd-go/m1nd/ingest v0.0.0
)

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
)

replace (
	github.com/m1nd-go/m1nd/core => ../core
	github.com/m1nd-go/m1nd/ingest => ../ingest
)
