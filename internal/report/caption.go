package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/safefs"
)

// The caption of a figure travels inside its files, so that the HTML page
// of a run (written later, from the files alone) can show it and so that a
// PNG copied out of the results still says what it is: in the PNG as an
// iTXt chunk (UTF-8 text; tEXt is Latin-1 only) with the registered keyword
// "Description", in the SVG as the <desc> element the SVG specification
// provides for it.

const pngCaptionKeyword = "Description"

// pngTextPxKeyword names the iTXt chunk that gives the height, in the
// PNG's own pixels, of the figure's smallest label: the page shows a
// figure whose labels it would shrink under 9 CSS pixels as a thumbnail
// that links to the full image (htmlFigure.Thumb), and internal/pagecheck
// measures the labels as shown (data-text-px).
const pngTextPxKeyword = "runexp:text-px"

// withTextPx returns a copy of the PNG b saying that its smallest label is
// px pixels tall.
func withTextPx(b []byte, px float64) ([]byte, error) {
	return pngWithText(b, pngTextPxKeyword, strconv.FormatFloat(px, 'f', 1, 64))
}

// ReadTextPx returns the height of the smallest label of the PNG b in its
// own pixels (withTextPx), or 0 when it does not say.
func ReadTextPx(b []byte) float64 {
	s, ok := pngText(b, pngTextPxKeyword)
	if !ok {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 {
		return 0
	}
	return v
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// embedCaption returns copies of a PNG and an SVG carrying caption; an
// empty caption leaves both unchanged.
func embedCaption(pngBytes, svgBytes []byte, caption string) ([]byte, []byte, error) {
	if caption == "" {
		return pngBytes, svgBytes, nil
	}
	p, err := pngWithText(pngBytes, pngCaptionKeyword, caption)
	if err != nil {
		return nil, nil, err
	}
	s, err := svgWithDesc(svgBytes, caption)
	if err != nil {
		return nil, nil, err
	}
	return p, s, nil
}

// pngWithText inserts an uncompressed iTXt chunk right after IHDR.
func pngWithText(b []byte, keyword, txt string) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, then IHDR's length, type, data, CRC
	if len(b) < ihdrEnd || !bytes.HasPrefix(b, pngSignature) || string(b[12:16]) != "IHDR" {
		return nil, errors.New("report: not a PNG with a leading IHDR")
	}
	var data bytes.Buffer
	data.WriteString(keyword)
	data.Write([]byte{0, 0, 0}) // keyword end, not compressed, method 0
	data.WriteByte(0)           // no language tag
	data.WriteByte(0)           // no translated keyword
	data.WriteString(txt)
	chunk := make([]byte, 0, 12+data.Len())
	chunk = binary.BigEndian.AppendUint32(chunk, uint32(data.Len()))
	chunk = append(chunk, "iTXt"...)
	chunk = append(chunk, data.Bytes()...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(b)+len(chunk))
	out = append(out, b[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, b[ihdrEnd:]...), nil
}

// pngText returns the text of the first iTXt or tEXt chunk named keyword,
// and whether there is one.
func pngText(b []byte, keyword string) (string, bool) {
	if !bytes.HasPrefix(b, pngSignature) {
		return "", false
	}
	for i := len(pngSignature); i+12 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		typ := string(b[i+4 : i+8])
		if n < 0 || i+12+n > len(b) {
			return "", false
		}
		data := b[i+8 : i+8+n]
		switch typ {
		case "iTXt":
			// keyword \0 flag method lang \0 translated \0 text
			k, rest, ok := bytes.Cut(data, []byte{0})
			if ok && string(k) == keyword && len(rest) >= 2 && rest[0] == 0 {
				rest = rest[2:]
				if _, rest, ok = bytes.Cut(rest, []byte{0}); ok {
					if _, rest, ok = bytes.Cut(rest, []byte{0}); ok {
						return string(rest), true
					}
				}
			}
		case "tEXt":
			if k, v, ok := bytes.Cut(data, []byte{0}); ok && string(k) == keyword {
				return string(v), true
			}
		case "IDAT", "IEND":
			return "", false // text chunks of ours precede the image data
		}
		i += 12 + n
	}
	return "", false
}

// svgWithDesc inserts <desc>txt</desc> as the first child of the root
// <svg> element.
func svgWithDesc(b []byte, txt string) ([]byte, error) {
	i := bytes.Index(b, []byte("<svg"))
	if i < 0 {
		return nil, errors.New("report: SVG without an <svg> element")
	}
	j := bytes.IndexByte(b[i:], '>')
	if j < 0 {
		return nil, errors.New("report: SVG with an unterminated <svg> tag")
	}
	j += i + 1
	desc := "\n<desc>" + html.EscapeString(txt) + "</desc>"
	out := make([]byte, 0, len(b)+len(desc))
	out = append(out, b[:j]...)
	out = append(out, desc...)
	return append(out, b[j:]...), nil
}

// svgDesc returns the text of the first <desc> element.
func svgDesc(b []byte) (string, bool) {
	_, rest, ok := bytes.Cut(b, []byte("<desc>"))
	if !ok {
		return "", false
	}
	d, _, ok := bytes.Cut(rest, []byte("</desc>"))
	if !ok {
		return "", false
	}
	return html.UnescapeString(string(d)), true
}

// ReadCaption returns the caption embedded in the figure file at path (a
// .png or .svg written by [Figure.Save] or [ImageGrid.Save]), or "" when
// it has none. Only the head of the file is read: a PNG's chunks before
// its image data (ReadPNGHead), an SVG's first svgHeadBytes, where
// svgWithDesc puts the caption; a figure of any size costs the same.
func ReadCaption(path string) (string, error) {
	switch {
	case strings.HasSuffix(path, ".png"):
		h, err := ReadPNGHead(path)
		if err != nil {
			return "", err
		}
		return h.Caption, nil
	case strings.HasSuffix(path, ".svg"):
		f, _, err := safefs.Open(path)
		if err != nil {
			return "", fmt.Errorf("report: %w", err)
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, svgHeadBytes))
		if err != nil {
			return "", fmt.Errorf("report: %s: %w", path, err)
		}
		s, _ := svgDesc(b)
		return s, nil
	}
	return "", nil
}

// svgHeadBytes is how much of an SVG ReadCaption reads: the <desc> of a
// caption follows the <svg> tag, and a caption is at most a few
// kilobytes.
const svgHeadBytes = 4 << 20

// PNGHead is what the chunks of a PNG before its image data say: its
// size and the texts runexp embeds (the caption, the smallest label's
// height).
type PNGHead struct {
	W, H    int
	Caption string
	// TextPx is the height of the smallest label in the PNG's own
	// pixels (withTextPx), 0 when it does not say.
	TextPx float64
}

// maxPNGTextChunk bounds one text chunk ReadPNGHead reads; other chunks
// before the image data (a palette, a colour profile) are skipped
// unread.
const maxPNGTextChunk = 16 << 20

// ReadPNGHead reads the chunks of the PNG at path up to its first image
// data chunk, reading only IHDR and the text chunks (each at most
// maxPNGTextChunk bytes) and seeking past the rest, so that a PNG of any
// size costs a few reads. A file that is not a regular file is an error
// naming it; one that is no PNG gives an empty PNGHead.
func ReadPNGHead(path string) (PNGHead, error) {
	var h PNGHead
	f, _, err := safefs.Open(path)
	if err != nil {
		return h, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	// A file that is no PNG, or one cut short, says nothing: the page
	// shows it without a caption or size, as a browser would show it.
	bad := func(string) (PNGHead, error) { return PNGHead{}, nil }
	sig := make([]byte, len(pngSignature))
	if _, err := io.ReadFull(f, sig); err != nil || !bytes.Equal(sig, pngSignature) {
		return bad("no PNG signature")
	}
	hdr := make([]byte, 8)
	for i := 0; ; i++ {
		if _, err := io.ReadFull(f, hdr); err != nil {
			return bad("it ends before its image data")
		}
		n, typ := int64(binary.BigEndian.Uint32(hdr)), string(hdr[4:])
		first := i == 0
		switch {
		case i > maxPNGHeadChunks || !pngChunkType(hdr[4:]):
			return bad("no image data among its first chunks")
		case first && (typ != "IHDR" || n != 13):
			return bad("no IHDR chunk first")
		case typ == "IDAT" || typ == "IEND":
			return h, nil
		case typ == "IHDR" || ((typ == "iTXt" || typ == "tEXt") && n <= maxPNGTextChunk):
			data := make([]byte, n)
			if _, err := io.ReadFull(f, data); err != nil {
				return bad("a chunk is cut short")
			}
			h.read(typ, data)
			if _, err := f.Seek(4, io.SeekCurrent); err != nil { // the CRC
				return bad(err.Error())
			}
		default:
			if _, err := f.Seek(n+4, io.SeekCurrent); err != nil {
				return bad(err.Error())
			}
		}
	}
}

// maxPNGHeadChunks bounds the chunks ReadPNGHead reads before the image
// data: runexp's PNGs have four.
const maxPNGHeadChunks = 256

// pngChunkType reports whether b is a chunk type: four ASCII letters.
func pngChunkType(b []byte) bool {
	for _, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// read takes what a chunk of type typ with data says.
func (h *PNGHead) read(typ string, data []byte) {
	if typ == "IHDR" {
		h.W, h.H = int(binary.BigEndian.Uint32(data)), int(binary.BigEndian.Uint32(data[4:]))
		return
	}
	// pngText reads a PNG; give it this chunk alone behind a signature.
	one := make([]byte, 0, len(pngSignature)+12+len(data))
	one = append(one, pngSignature...)
	one = binary.BigEndian.AppendUint32(one, uint32(len(data)))
	one = append(one, typ...)
	one = append(one, data...)
	one = append(one, 0, 0, 0, 0)
	if s, ok := pngText(one, pngCaptionKeyword); ok && h.Caption == "" {
		h.Caption = s
	}
	if px := ReadTextPx(one); px > 0 && h.TextPx == 0 {
		h.TextPx = px
	}
}
