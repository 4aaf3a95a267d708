//go:build !(linux && cgo)

package extract

func trimC() {}
