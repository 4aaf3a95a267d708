package continuity

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// strictObject is an object argument (or one object of an object-array
// argument) decoded into T with unknown fields refused: a typo such as
// "statment" is reported, not silently dropped. Decoding never fails the
// call's binding: the handler reports err as a teaching error (strictItems
// does for an array). As a field of an input struct it is an object
// parameter, a slice of it an object-array parameter.
type strictObject[T any] struct {
	v   T
	err error
}

func (s *strictObject[T]) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	s.err = dec.Decode(&s.v)
	return nil
}

// strictItems returns the decoded objects of the object-array argument
// name, or a teaching error naming the first that did not decode.
func strictItems[T any](name string, items []strictObject[T], example string) ([]T, error) {
	var out []T
	for _, it := range items {
		if it.err != nil {
			return nil, tools.Errorf(fmt.Sprintf("Each entry of %s is an object like %s.", name, example), "%s: %v", name, it.err)
		}
		out = append(out, it.v)
	}
	return out, nil
}
