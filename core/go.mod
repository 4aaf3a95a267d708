module github.com/m1nd-go/m1nd/core

go 1.26
