package snapshot

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/m1nd-go/m1nd/core/graph"
)

func graphEdge(e int) graph.EdgeIdx { return graph.EdgeIdx(e) }

// wrapBody frames body as a binary snapshot with a correct header and
// checksum.
func wrapBody(body []byte) []byte {
	b := append([]byte{}, binaryMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, BinaryVersion)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = append(b, body...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	return append(b, binaryTrailer[:]...)
}
