package scan

import "unsafe"

func jsLanguage(n string, p func() unsafe.Pointer, t bool) *lang { return &lang{name: n, ptr: p} }
func javaLanguage(p func() unsafe.Pointer) *lang                 { return &lang{name: "java", ptr: p} }
func rustLanguage(p func() unsafe.Pointer) *lang                 { return &lang{name: "rust", ptr: p} }
