package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"html"
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
// it has none.
func ReadCaption(path string) (string, error) {
	b, err := safefs.ReadFile(path, maxFigureBytes)
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	switch {
	case strings.HasSuffix(path, ".png"):
		s, _ := pngText(b, pngCaptionKeyword)
		return s, nil
	case strings.HasSuffix(path, ".svg"):
		s, _ := svgDesc(b)
		return s, nil
	}
	return "", nil
}

// maxFigureBytes bounds a figure file ReadCaption reads (the largest a
// run writes is a few megabytes).
const maxFigureBytes = 512 << 20
